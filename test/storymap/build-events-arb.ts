import fc from 'fast-check';
import type { StoryEvent } from '../../src/commands/storymap/story-state.js';
import {
  openBlockers,
  openHandoffs,
  type BuildRecord,
} from '../../src/events/storymap/build-record.js';
import type { StoryTest } from '../../src/events/storymap/index.js';
import { criteriaAdded, criterion, P, statusChanged, storyCreated } from './fixture.js';

/**
 * Random building-loop events on one story s1 (the decider's maps and the read model's items
 * are both checked against build-fold.ts's plain record with them), ids drawn from what the
 * story already holds so that updates, renames, clears and answers happen.
 */
export const on = { project_id: P, story_id: 's1' };
export const AT = '2026-12-01T10:00:00.000Z';
/** `h` hours after AT */
const hoursAfter = (h: number) => new Date(Date.parse(AT) + h * 3_600_000).toISOString();
export const CRITERIA = ['c1', 'c2', 'c3'];
export const FILES = ['a.ts', 'b.ts', null];
export const NAMES = ['x', 'y', null];

export const Op = fc.oneof(
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
  fc.record({ kind: fc.constant('done' as const), back: fc.boolean() }),
);
export type Op = typeof Op extends fc.Arbitrary<infer T> ? T : never;

const pick = <T>(list: readonly T[], i: number): T | undefined =>
  list.length === 0 ? undefined : list[i % list.length];

/** The events an op makes of the story so far (ids drawn from what it already holds). */
export const eventsOf = (op: Op, b: BuildRecord, n: number): StoryEvent[] => {
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
      const at = hoursAfter(n % 4);
      const data = { ...on, report_id: `r${n % 5}`, run_at: null, results, by: 'eddie', at };
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
    case 'done': {
      const at = hoursAfter(3);
      if (op.back) return [statusChanged('s1', 'done', 'needs_rework')];
      const summary = {
        summary: 'built',
        implemented_files: ['a.ts'],
        pr_url: null,
        forced: false,
        unmet: [],
      };
      return [
        statusChanged('s1', 'in_progress', 'done'),
        { type: 'story.completed', data: { ...on, ...summary, session_id: 'A', by: 'eddie', at } },
      ];
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

/** The story every sequence starts from: created, with the three criteria, all must. */
export const baseEvents = (): StoryEvent[] => [
  storyCreated('s1', 1),
  criteriaAdded('s1', ...CRITERIA.map((c) => criterion(c, c, 'must'))),
];
