import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isDomainError } from '../../src/commands/errors.js';
import { approvalOf } from '../../src/commands/governance/review.js';
import type { Caller } from '../../src/commands/governance/roles.js';
import { workPackageDecider } from '../../src/commands/governance/work-package.js';
import {
  workPackageResult,
  type ReviewState,
  type WorkPackage,
  type WorkPackageCommand,
  type WorkPackageEvent,
  type WorkPackageResult,
} from '../../src/commands/governance/work-package-state.js';
import { cast } from './app-harness.js';
import { on } from './fixture.js';

/**
 * The work package's state keeps its history in maps and indexes (issue 39). Its answers must be
 * what the plain reading of the same events gives: every review and link in the order they
 * came, the approval an ACCEPT rests on found by searching every review (the rule as
 * docs/governance.md states it), a reviewer's pending review found the same way. Checked after
 * every step of random command sequences, and again on every earlier state once the sequence
 * is done (the fold cache hands old states to later loads).
 */
type Plain = {
  result: WorkPackageResult;
  approval: string | undefined;
  pending: Record<string, string | undefined>;
};

const plainReading = (events: readonly WorkPackageEvent[], state: WorkPackage): Plain => {
  const reviews: ReviewState[] = [];
  const commits: WorkPackageResult['links']['commits'] = [];
  const artifacts: WorkPackageResult['links']['artifacts'] = [];
  const submitters = new Set<string>();
  for (const { type, data } of events)
    if (type === 'review.requested') {
      const { project_id: _p, ...asked } = data;
      reviews.push({
        ...asked,
        status: 'PENDING',
        verdict: null,
        notes: null,
        result_number: null,
      });
    } else if (type === 'review.submitted') {
      const i = reviews.findIndex((r) => r.review_id === data.review_id);
      const { verdict, notes, result_number } = data;
      reviews[i] = { ...reviews[i]!, status: 'SUBMITTED', verdict, notes, result_number };
    } else if (type === 'commit.linked') {
      const { commit_id, repository, linked_by } = data;
      commits.push({ commit_id, repository, linked_by });
    } else if (type === 'artifact.linked') {
      const { uri, title, linked_by } = data;
      artifacts.push({ uri, title, linked_by });
    } else if (type === 'work_package.result_submitted') submitters.add(data.submitted_by);
  const independent = (actor: string) => actor !== state.claimed_by && !submitters.has(actor);
  const approval = reviews.findLast(
    (r) =>
      r.verdict === 'APPROVE' &&
      r.result_number === state.result?.result_number &&
      r.reviewer_id !== r.requested_by &&
      independent(r.reviewer_id),
  )?.review_id;
  const pending = Object.fromEntries(
    cast.map((c) => [c.actor_id, reviews.find((r) => r.reviewer_id === c.actor_id && !r.verdict)]),
  );
  return {
    result: { ...workPackageResult(state), reviews, links: { commits, artifacts } },
    approval,
    pending: Object.fromEntries(Object.entries(pending).map(([a, r]) => [a, r?.review_id])),
  };
};

const read = (state: WorkPackage): Plain => ({
  result: workPackageResult(state),
  approval: approvalOf(state)?.review_id,
  pending: Object.fromEntries(
    cast.map((c) => [c.actor_id, state.pendingByReviewer.get(c.actor_id)]),
  ),
});

const caller = fc.constantFrom(...cast) as fc.Arbitrary<Caller>;
const byName = (id: string) => cast.find((c) => c.actor_id === id)!;
/** Reviewers mostly from a few members, so a result often has several verdicts. */
const reviewerOf = fc.oneof(fc.constantFrom('rita', 'rolf', 'paul').map(byName), caller);

/**
 * A step names a review by its place among those requested so far, and is answered by its
 * reviewer most of the time: random ids and callers would almost never reach an approval.
 */
type Step =
  | { op: 'command'; command: WorkPackageCommand }
  | { op: 'request'; by: Caller; reviewer: Caller; reuse: boolean }
  | { op: 'answer'; nth: number; verdict: 'APPROVE' | 'REQUEST_CHANGES' | 'REJECT'; by?: Caller };

const commandStep = (command: fc.Arbitrary<WorkPackageCommand>): fc.Arbitrary<Step> =>
  command.map((c) => ({ op: 'command', command: c }));

const step: fc.Arbitrary<Step> = fc.oneof(
  commandStep(caller.map((by) => ({ type: 'ClaimWorkPackage', data: { by } }))),
  commandStep(fc.constant({ type: 'SubmitResult', data: { by: byName('ivan'), summary: 's' } })),
  commandStep(caller.map((by) => ({ type: 'SubmitResult', data: { by, summary: 's' } }))),
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('request' as const),
      by: fc.oneof(fc.constantFrom('ivan', 'pat').map(byName), caller),
      reviewer: reviewerOf,
      reuse: fc.nat(9).map((n) => n === 0),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record(
      {
        op: fc.constant('answer' as const),
        nth: fc.nat(12),
        verdict: fc.constantFrom('APPROVE', 'APPROVE', 'REQUEST_CHANGES', 'REJECT' as const),
        by: fc.option(caller, { freq: 5, nil: undefined }),
      },
      { requiredKeys: ['op', 'nth', 'verdict'] },
    ),
  },
  commandStep(
    fc
      .record({
        by: caller,
        commit_id: fc.constantFrom('abcd', 'ABCD', 'ef01', '2345'),
        repository: fc.constantFrom(null, '', 'github.com/a/b'),
      })
      .map((data) => ({ type: 'LinkCommit', data })),
  ),
  commandStep(
    fc
      .record({
        by: caller,
        uri: fc.constantFrom('https://a.example/1', 'https://a.example/2'),
        title: fc.constantFrom(null, 'design'),
      })
      .map((data) => ({ type: 'LinkArtifact', data })),
  ),
  commandStep(
    fc
      .record({
        by: fc.oneof(fc.constantFrom('olivia', 'pat').map(byName), caller),
        outcome: fc.constantFrom('ACCEPT', 'REJECT', 'REWORK', 'REWORK', 'REWORK' as const),
      })
      .map(({ by, outcome }) => ({ type: 'CloseGate', data: { by, outcome, reason: null } })),
  ),
);

type Requested = { id: string; reviewer: Caller; answered: boolean };

/** The command a step stands for, given the reviews requested so far. */
const commandOf = (s: Step, requested: Requested[]): WorkPackageCommand => {
  switch (s.op) {
    case 'command':
      return s.command;
    case 'request': {
      const review_id = s.reuse && requested.length > 0 ? requested[0]!.id : `r${requested.length}`;
      const { by, reviewer } = s;
      const reviewer_role = reviewer.role === 'SYSTEM' ? null : reviewer.role;
      const data = { by, review_id, reviewer_id: reviewer.actor_id, reviewer_role };
      return { type: 'RequestReview', data };
    }
    case 'answer': {
      // mostly one still waiting for its verdict
      const waiting = requested.filter((r) => !r.answered);
      const from = waiting.length > 0 && s.nth % 4 !== 0 ? waiting : requested;
      const asked = from[s.nth % Math.max(1, from.length)];
      const by = s.by ?? asked?.reviewer ?? cast[0]!;
      const data = { by, review_id: asked?.id ?? 'none', verdict: s.verdict, notes: null };
      return { type: 'SubmitReview', data };
    }
  }
};

/** Issued and claimed by ivan first, so most steps have something to act on. */
const start: Step[] = [
  {
    op: 'command',
    command: {
      type: 'IssueWorkPackage',
      data: { by: byName('olivia'), ...on, title: 't', description: null, acceptance_criteria: [] },
    },
  },
  { op: 'command', command: { type: 'ClaimWorkPackage', data: { by: byName('ivan') } } },
];

describe('work package state, kept in maps and indexes', () => {
  it('answers as the plain reading of its events, at every step and after', () => {
    let approvals = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 10, maxLength: 80, size: 'medium' }), (steps) => {
        let state = workPackageDecider.initialState();
        const events: WorkPackageEvent[] = [];
        const requested: Requested[] = [];
        const seen: { state: WorkPackage; plain: Plain }[] = [];
        for (const s of [...start, ...steps]) {
          let decided: WorkPackageEvent[];
          try {
            decided = [workPackageDecider.decide(commandOf(s, requested), state)].flat();
          } catch (error) {
            if (isDomainError(error)) continue;
            throw error;
          }
          events.push(...decided);
          for (const { type, data } of decided)
            if (type === 'review.requested')
              requested.push({
                id: data.review_id,
                reviewer: byName(data.reviewer_id),
                answered: false,
              });
            else if (type === 'review.submitted')
              requested.find((r) => r.id === data.review_id)!.answered = true;
          state = decided.reduce(workPackageDecider.evolve, state);
          if (state.status === 'NONE') continue;
          const plain = plainReading(events, state);
          assert.deepStrictEqual(read(state), plain);
          seen.push({ state, plain });
          approvals += plain.approval ? 1 : 0;
        }
        for (const { state: earlier, plain } of seen.reverse())
          assert.deepStrictEqual(read(earlier), plain);
      }),
      { numRuns: 300 },
    );
    // the sequences do reach the rule under test
    assert.ok(approvals > 300, `${approvals} states with an approval`);
  });
});
