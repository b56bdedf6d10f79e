import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { evolveBuild } from '../../src/commands/storymap/build-fold.js';
import type { StoryEvent } from '../../src/commands/storymap/story-state.js';
import { initialBuild, type BuildRecord } from '../../src/events/storymap/build-record.js';
import type { ModelStore } from '../../src/events/index.js';
import type { LogEvent } from '../../src/events/envelope.js';
import { criterionEvidence } from '../../src/projections/storymap/evidence.js';
import {
  STORYMAP_STORIES,
  storyMapModel,
  storyMapStoriesProjector,
} from '../../src/projections/storymap/stories.js';
import { AT, baseEvents, eventsOf, Op } from './build-events-arb.js';
import { P } from './fixture.js';

/**
 * The stories read model keeps a story as a head and its items (story-head.ts, issue 39). Put
 * back together after every event of random sequences, it is the story the plain fold gives
 * (build-fold.ts's record, the evidence of evidence.ts walked over it), and no event writes
 * more than its head and the items it names.
 */
const memory = () => {
  const values = new Map<string, unknown>();
  let written = 0;
  const full = (key: string) => `${STORYMAP_STORIES}/${key}`;
  const tx = {
    get: async <T>(key: string) => values.get(full(key)) as T | undefined,
    put: (key: string, value: unknown) => {
      written += JSON.stringify(value).length;
      values.set(full(key), structuredClone(value));
    },
    del: (key: string) => void values.delete(full(key)),
  };
  const models = {
    get: async <T>(key: string) => values.get(key) as T | undefined,
    getMany: async <T>(keys: string[]) => keys.map((k) => values.get(k) as T | undefined),
  } as unknown as ModelStore;
  return { tx, models, written: () => written };
};

describe('a story in the read model as a head and its items (issue 39)', () => {
  it('puts back together what the plain fold holds, with the same evidence', () =>
    fc.assert(
      fc.asyncProperty(fc.array(Op, { maxLength: 30 }), async (ops) => {
        const { tx, models } = memory();
        let version = 0;
        let plain: BuildRecord = initialBuild();
        const apply = async (e: StoryEvent) => {
          const event = { ...e, created_at: AT, stream_version: ++version } as unknown as LogEvent;
          await storyMapStoriesProjector.apply(event, tx);
          plain = evolveBuild(plain, e);
        };
        for (const e of baseEvents()) await apply(e);
        for (const [n, op] of ops.entries()) {
          for (const e of eventsOf(op, plain, n + 1)) await apply(e);
          const v = (await storyMapModel.story.get(models, P, 's1'))!;
          const tests = new Set(plain.tests.map((t) => t.test_id));
          const ci = Object.fromEntries(Object.entries(plain.ci).filter(([id]) => tests.has(id)));
          assert.deepStrictEqual(v.build, { ...plain, ci });
          for (const c of v.acceptance_criteria) {
            const e = criterionEvidence(v, plain, c.id);
            assert.equal(c.ci_regressed, e.ci_regressed, `${c.id} ci_regressed`);
            assert.equal(
              c.test_count,
              plain.tests.filter((t) => t.criterion_ids.includes(c.id)).length,
            );
            assert.deepStrictEqual(c.last_result, plain.results[c.id] ?? null);
          }
          const predate = v.acceptance_criteria.some(
            (c) => criterionEvidence(v, plain, c.id).tests_predate_code,
          );
          assert.equal(v.tests_predate_code, predate);
        }
      }),
      { numRuns: 150 },
    ));
});
