import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { evolveBuild } from '../../src/commands/storymap/build-fold.js';
import { coverage } from '../../src/commands/storymap/build-evidence.js';
import {
  buildRecordOf,
  openBlockerIds,
  openHandoffIds,
  testNamed,
  unansweredIds,
} from '../../src/commands/storymap/build-state.js';
import type { StoryEvent, StoryState } from '../../src/commands/storymap/story-state.js';
import { evolveStory, initialStory } from '../../src/commands/storymap/story-state.js';
import {
  initialBuild,
  openBlockers,
  openHandoffs,
  type BuildRecord,
} from '../../src/events/storymap/build-record.js';
import type { StoryTest } from '../../src/events/storymap/index.js';
import { StateCodec } from '../../src/events/index.js';
import '../../src/commands/snapshots.js';
import { criteriaAdded, criterion, P, storyCreated } from './fixture.js';

/**
 * The decider keeps a story's building record in maps and indexes (build-state.ts, issue 39);
 * the plain fold (build-fold.ts) keeps it in arrays. After every event of random sequences the
 * two hold the same record, the indexes answer what a walk over the arrays answers, and once a
 * sequence is done every earlier state still does (the fold cache hands old states to loads).
 */
const on = { project_id: P, story_id: 's1' };
const AT = '2026-12-01T10:00:00.000Z';
const CRITERIA = ['c1', 'c2', 'c3'];
const FILES = ['a.ts', 'b.ts', null];
const NAMES = ['x', 'y', null];

const Op = fc.oneof(
  fc.record({
    kind: fc.constant('tests' as const),
    add: fc.nat(3),
    update: fc.array(fc.record({ at: fc.nat(), links: fc.subarray(CRITERIA), name: fc.nat(8) }), {
      maxLength: 3,
    }),
  }),
  fc.record({ kind: fc.constant('report' as const), ids: fc.subarray(CRITERIA, { minLength: 1 }) }),
  fc.record({ kind: fc.constant('ci' as const), at: fc.array(fc.nat(), { maxLength: 4 }) }),
  fc.record({ kind: fc.constant('replace' as const), removed: fc.subarray(CRITERIA) }),
  fc.record({ kind: fc.constant('plan' as const), answer: fc.array(fc.nat(), { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('review' as const), points: fc.nat(2) }),
  fc.record({ kind: fc.constant('blocker' as const), clear: fc.option(fc.nat()) }),
  fc.record({ kind: fc.constant('handoff' as const), clear: fc.option(fc.nat()) }),
  fc.record({ kind: fc.constant('claim' as const), release: fc.boolean() }),
);
type Op = typeof Op extends fc.Arbitrary<infer T> ? T : never;

const pick = <T>(list: readonly T[], i: number): T | undefined =>
  list.length === 0 ? undefined : list[i % list.length];

/** The events an op makes of the story so far (ids drawn from what it already holds). */
const eventsOf = (op: Op, b: BuildRecord, n: number): StoryEvent[] => {
  const meta = { session_id: 'A', by: 'eddie', at: AT };
  switch (op.kind) {
    case 'tests': {
      const added: StoryTest[] = Array.from({ length: op.add }, (_, k) => ({
        test_id: `t${n}-${k}`,
        title: 'a test',
        steps: null,
        expected_result: null,
        test_type: 'functional',
        criterion_ids: CRITERIA.slice(0, (n + k) % 3),
        file: FILES[(n + k) % 3]!,
        full_name: NAMES[k % 3]!,
      }));
      const updated = new Map<string, StoryTest>();
      for (const u of op.update) {
        const t = pick(b.tests, u.at);
        if (t)
          updated.set(t.test_id, {
            ...t,
            criterion_ids: u.links,
            file: FILES[u.name % 3]!,
            full_name: NAMES[Math.floor(u.name / 3)]!,
          });
      }
      return [
        {
          type: 'story.tests_saved',
          data: { ...on, added, updated: [...updated.values()], ...meta },
        },
      ];
    }
    case 'report':
      return [
        {
          type: 'criteria.reported',
          data: {
            ...on,
            results: op.ids.map((criterion_id, k) => ({
              criterion_id,
              status: (['pass', 'fail', 'blocked'] as const)[(n + k) % 3]!,
              detail: null,
              caveat: null,
              attempt: n,
            })),
            ...meta,
          },
        },
      ];
    case 'ci': {
      const ids = [...new Set(op.at.map((i) => pick(b.tests, i)?.test_id ?? `gone${i}`))];
      const results = ids.map((test_id, k) => ({
        test_id,
        status: (['pass', 'fail', 'error'] as const)[(n + k) % 3]!,
        message: null,
        cases: 1,
      }));
      const data = { ...on, report_id: `r${n % 5}`, run_at: null, results, by: 'eddie', at: AT };
      return [{ type: 'story.ci_results_recorded', data }];
    }
    case 'replace': {
      const kept = CRITERIA.filter((c) => !op.removed.includes(c));
      const criteria = kept.map((c) => criterion(c, c));
      return [
        {
          type: 'criteria.replaced',
          data: { ...on, criteria, removed: op.removed, kept, by: 'eddie' },
        },
      ];
    }
    case 'plan': {
      const responses = [
        ...new Set(op.answer.map((i) => pick(b.feedback, i)?.feedback_id)),
      ].flatMap((feedback_id) => (feedback_id ? [{ feedback_id, reply: 'ok' }] : []));
      const steps = [{ id: `s${n}`, text: 'do it', files: ['a.ts'], edited_by: null }];
      const data = {
        ...on,
        plan_version: n,
        steps,
        questions: [],
        risk: null,
        conflicts: [],
        responses,
        ...meta,
      };
      return [{ type: 'story.plan_saved', data }];
    }
    case 'review': {
      const feedback = Array.from({ length: op.points }, (_, k) => ({
        feedback_id: `f${b.feedback.length + k + 1}`,
        text: 'change it',
        step_id: null,
      }));
      const verdict = op.points === 0 ? ('approved' as const) : ('changes_requested' as const);
      return [
        {
          type: 'story.plan_reviewed',
          data: {
            ...on,
            plan_version: b.plan?.version ?? 0,
            verdict,
            feedback,
            by: 'olivia',
            at: AT,
          },
        },
      ];
    }
    case 'blocker': {
      const open = openBlockers(b);
      const cleared = op.clear === null ? undefined : pick(open, op.clear);
      if (cleared)
        return [
          {
            type: 'story.blocker_cleared',
            data: { ...on, blocker_id: cleared.blocker_id, decision: 'go', by: 'olivia', at: AT },
          },
        ];
      const blocker = {
        blocker_id: `b${n}`,
        summary: 's',
        attempting: 'a',
        failing: 'f',
        decision_needed: 'd',
        criterion_id: null,
        attempts: 1,
      };
      return [{ type: 'story.blocker_raised', data: { ...on, ...blocker, ...meta } }];
    }
    case 'handoff': {
      const open = openHandoffs(b);
      const cleared = op.clear === null ? undefined : pick(open, op.clear);
      if (cleared)
        return [
          {
            type: 'story.handoff_cleared',
            data: { ...on, handoff_id: cleared.handoff_id, note: null, by: 'olivia', at: AT },
          },
        ];
      const handoff = { handoff_id: `h${n}`, action: 'sign up', detail: null, step_id: null };
      return [{ type: 'story.founder_needed', data: { ...on, ...handoff, ...meta } }];
    }
    case 'claim':
      return op.release
        ? [
            {
              type: 'story.claim_released',
              data: { ...on, session_id: 'A', reason: 'released', by: 'eddie', at: AT },
            },
          ]
        : [
            {
              type: 'story.claimed',
              data: {
                ...on,
                session_id: 'A',
                client: null,
                took_over_from: null,
                by: 'eddie',
                at: AT,
              },
            },
          ];
  }
};

/** What the indexes answer must be what a walk over the plain record answers. */
const sameAnswers = (state: StoryState, plain: BuildRecord) => {
  assert.deepStrictEqual(buildRecordOf(state.build), plain);
  const linked = new Set(plain.tests.flatMap((t) => t.criterion_ids));
  assert.deepStrictEqual(coverage(state), {
    untested_criteria: state.criteria.map((c) => c.criterion_id).filter((c) => !linked.has(c)),
    unlinked_tests: plain.tests.filter((t) => t.criterion_ids.length === 0).map((t) => t.test_id),
  });
  for (const file of FILES)
    for (const name of NAMES.filter((x) => x !== null))
      assert.deepStrictEqual(
        testNamed(state.build, file, name),
        plain.tests.find((t) => t.file === file && t.full_name === name),
      );
  assert.deepStrictEqual(
    openBlockerIds(state.build),
    openBlockers(plain).map((x) => x.blocker_id),
  );
  assert.deepStrictEqual(
    openHandoffIds(state.build),
    openHandoffs(plain).map((x) => x.handoff_id),
  );
  assert.deepStrictEqual(
    unansweredIds(state.build),
    plain.feedback.filter((f) => f.reply === null).map((f) => f.feedback_id),
  );
};

describe('a story building record in maps (issue 39)', () => {
  it('holds what the plain fold holds, and its indexes answer what a walk answers', () =>
    fc.assert(
      fc.property(fc.array(Op, { maxLength: 40 }), (ops) => {
        const base: StoryEvent[] = [
          storyCreated('s1', 1),
          criteriaAdded('s1', ...CRITERIA.map((c) => criterion(c, c, 'must'))),
        ];
        let state = base.reduce(evolveStory, initialStory());
        let plain = base.reduce(evolveBuild, initialBuild());
        const seen: [StoryState, BuildRecord][] = [[state, plain]];
        const events: StoryEvent[] = [];
        ops.forEach((op, n) => {
          for (const e of eventsOf(op, plain, n + 1)) {
            state = evolveStory(state, e);
            plain = evolveBuild(plain, e);
            events.push(e);
          }
          sameAnswers(state, plain);
          seen.push([state, plain]);
        });
        for (const [s, p] of [...seen].reverse()) sameAnswers(s, p);
        // a persisted snapshot of any step, then the events after it: the same answers
        const at = Math.floor(events.length / 2);
        const snapshot = StateCodec.decode<StoryState>(
          StateCodec.encode(events.slice(0, at).reduce(evolveStory, seen[0]![0])),
        );
        sameAnswers(events.slice(at).reduce(evolveStory, snapshot), plain);
      }),
      { numRuns: 300 },
    ));
});
