import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { App } from '../../src/app/app.js';
import { storymap } from '../../src/app/storymap/index.js';
import { isDomainError } from '../../src/commands/errors.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { encode } from '../../src/events/index.js';
import { openIntentlog } from '../../src/modules/index.js';
import {
  orderRow,
  rowPrefix,
  STORYMAP_BUILD_ORDER,
  type StoredRow,
} from '../../src/projections/storymap/build-order.js';
import { STORYMAP_STORIES } from '../../src/projections/storymap/stories.js';
import { VISION } from './session.js';

const ref = fc.constantFrom('PB-1', 'PB-2', 'PB-3', 'PB-4', '#1');
const step = fc.oneof(
  fc.record({
    op: fc.constant('create' as const),
    titles: fc.subarray(['a', 'b', 'c', 'A', 'd']),
    release: fc.constantFrom(1, 2, 3, 1000),
  }),
  fc.record({
    op: fc.constant('update' as const),
    n: fc.integer({ min: 1, max: 4 }),
    status: fc.option(fc.constantFrom('todo', 'in_progress', 'done', 'needs_rework' as const), {
      nil: undefined,
    }),
    deps: fc.option(fc.subarray([1, 2, 3, 4]), { nil: undefined }),
    sequence: fc.option(fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }), {
      nil: undefined,
    }),
    title: fc.option(fc.constantFrom('x', 'y'), { nil: undefined }),
  }),
  fc.record({ op: fc.constant('cancel' as const), ref, cancel: fc.boolean() }),
  fc.record({
    op: fc.constant('criteria' as const),
    ref,
    replace: fc.boolean(),
    texts: fc.subarray(['one', 'two', 'three']),
  }),
  fc.record({ op: fc.constant('note' as const), ref }),
  fc.record({
    op: fc.constant('founder' as const),
    ref,
    to: fc.constantFrom('ready_for_dev', 'approved' as const),
  }),
  fc.record({ op: fc.constant('decision' as const), title: fc.constantFrom('t1', 't2') }),
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

const run = async (app: App, project_id: string, s: Step) => {
  const sm = storymap(app);
  const idOf = async (n: number) =>
    (await sm.reads.rows(project_id)).find((r) => r.key === `PB-${n}`)?.id ?? `missing-${n}`;
  switch (s.op) {
    case 'create':
      return sm.createStories(
        {
          project_id,
          stories: s.titles.map((title) => ({
            title,
            release_order: s.release,
            acceptance_criteria: ['c'],
          })),
        },
        SYSTEM,
      );
    case 'update': {
      await sm.reads.fresh();
      const deps = s.deps && (await Promise.all(s.deps.map(idOf)));
      const row = {
        id: await idOf(s.n),
        status: s.status,
        title: s.title,
        build_sequence: s.sequence,
        dependencies: deps,
      };
      return sm.updateStories(
        {
          project_id,
          stories: [
            Object.fromEntries(
              Object.entries(row).filter(([, v]) => v !== undefined),
            ) as typeof row,
          ],
        },
        SYSTEM,
      );
    }
    case 'cancel':
      return sm.cancel({ project_id, story_id: s.ref }, SYSTEM, s.cancel);
    case 'criteria':
      return s.replace
        ? sm.replaceCriteria({ project_id, story_id: s.ref, criteria: s.texts }, SYSTEM)
        : sm.addCriteria({ project_id, story_id: s.ref, criteria: s.texts }, SYSTEM);
    case 'note':
      return sm.addNote({ project_id, story_id: s.ref, note: 'n' }, SYSTEM);
    case 'founder':
      return sm.founderMark({ project_id, story_id: s.ref, to: s.to }, SYSTEM);
    case 'decision':
      return sm.logDecision({ project_id, title: s.title, description: 'd' }, SYSTEM);
  }
};

/**
 * Each row's version against the log itself: the stream version of the last story event the
 * build order folds for that story (a rebuild equal to live cannot tell a version both got
 * wrong the same way).
 */
const versionsAgree = async (app: App, project_id: string) => {
  const handles = new Set(app.projectors.find((p) => p.name === STORYMAP_BUILD_ORDER)!.handles);
  const last = new Map<string, number>();
  for (const e of await app.log.readAll({ after: 0, limit: await app.log.head() })) {
    const storyId = (e.data as { story_id?: unknown }).story_id;
    if (handles.has(e.type) && !e.type.startsWith('storymap.') && typeof storyId === 'string')
      last.set(storyId, e.stream_version);
  }
  const rows = await app.log.models.range<StoredRow>({
    prefix: `${STORYMAP_BUILD_ORDER}/${rowPrefix(project_id)}`,
  });
  for (const [, stored] of rows) {
    const row = orderRow(stored);
    assert.equal(row.version, last.get(row.id), `the version of ${row.key}`);
  }
};

const dump = async (app: App) =>
  (await app.log.models.range<unknown>({ prefix: 'storymap.' })).map(([k, v]) => [
    k,
    encode(v).toString('hex'),
  ]);

describe('story-map read models are a pure function of the log', () => {
  it("rebuilt equals live, byte for byte, and each row's version is its story's in the log", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const app = await openIntentlog({ store: 'memory' });
        try {
          const { project_id } = await storymap(app).createProject(
            { name: 'Photo Book', idea: 'i', client: null },
            SYSTEM,
          );
          await storymap(app).setVision({ project_id, answers: VISION }, SYSTEM);
          for (const s of steps)
            await run(app, project_id, s).catch((error: unknown) => {
              if (!isDomainError(error)) throw error; // refusals are part of the game
            });
          await app.waitFor(await app.log.head());
          const live = await dump(app);
          assert.ok(live.length >= 1, 'the map at least');
          await app.projections.rebuild([STORYMAP_STORIES, STORYMAP_BUILD_ORDER]);
          assert.deepEqual(await dump(app), live);
          await versionsAgree(app, project_id);
        } finally {
          await app.close();
        }
      }),
      { numRuns: 25 },
    );
  });
});
