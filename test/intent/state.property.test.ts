import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isDomainError } from '../../src/commands/errors.js';
import { decideTask, taskDecider, type TaskCommand } from '../../src/commands/intent/task.js';
import type { IntentEvent, TaskState } from '../../src/commands/intent/task-state.js';
import { intentRef, type ClaimBody } from '../../src/events/intent/index.js';
import { NOW, claim, started } from './fixture.js';

/**
 * The task's state keeps its claims in maps with a ref index (issue 39). Its answers must be
 * what the plain reading of the same events gives: the claims in the order they were added,
 * each one's life, the refs deleted, the candidates. Checked after every step of random command
 * sequences, and again on every earlier state once the sequence is done (the fold cache hands
 * old states to later loads).
 */
type Reading = {
  claims: [string, string, string | null, boolean][];
  deleted: string[];
  candidates: string[];
  imports: number;
  deletedTask: boolean;
};

const plainReading = (events: readonly IntentEvent[]): Reading => {
  let claims: Reading['claims'] = [];
  const deleted: string[] = [];
  let candidates: string[] = [];
  let imports = 0;
  let deletedTask = false;
  const set = (id: string, change: (c: Reading['claims'][number]) => Reading['claims'][number]) =>
    (claims = claims.map((c) => (c[0] === id ? change(c) : c)));
  for (const e of events)
    if (e.type === 'intent.claim_added') {
      claims.push([e.data.claim.claim_id, 'active', null, false]);
      for (const old of e.data.claim.supersedes)
        set(old, ([id, , , p]) => [id, 'superseded', e.data.claim.claim_id, p]);
    } else if (e.type === 'intent.claim_invalidated')
      set(e.data.claim_id, ([id, , by, p]) => [id, 'invalidated', by, p]);
    else if (e.type === 'intent.claim_promoted')
      set(e.data.claim_id, ([id, l, by]) => [id, l, by, true]);
    else if (e.type === 'intent.claim_deleted') {
      claims = claims.filter(([id]) => intentRef(id) !== e.data.claim_ref);
      deleted.push(e.data.claim_ref);
    } else if (e.type === 'intent.candidate_recorded') candidates.push(e.data.candidate_id);
    else if (e.type === 'intent.import_recorded') imports += 1;
    else if (e.type === 'intent.task_deleted') {
      deleted.push(...e.data.claim_refs);
      claims = [];
      candidates = [];
      deletedTask = true;
    }
  return { claims, deleted: [...new Set(deleted)].sort(), candidates, imports, deletedTask };
};

const read = (state: TaskState): Reading => {
  const claims = [...state.claims.values()];
  // the ref index names exactly the claims held, and the ordinals keep their order
  assert.deepEqual(
    [...state.claimByRef.entries()].sort(),
    claims.map((c) => [c.ref, c.body.claim_id]).sort(),
  );
  assert.deepEqual(
    claims.map((c) => c.ordinal),
    claims.map((c) => c.ordinal).sort((a, b) => a - b),
  );
  return {
    claims: claims.map((c) => [c.body.claim_id, c.life, c.superseded_by, c.promoted]),
    deleted: [...state.deleted_claims.keys()].sort(),
    candidates: [...state.candidates.keys()],
    imports: state.imports,
    deletedTask: state.deleted,
  };
};

const on = { now: NOW };
type Step =
  | { kind: 'add'; status: ClaimBody['epistemic_status'] }
  | { kind: 'replace' | 'invalidate' | 'delete'; pick: number }
  | { kind: 'dispute'; picks: [number, number] }
  | { kind: 'candidate'; pick: number }
  | { kind: 'deleteTask' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      status: fc.constantFrom('explicit', 'evidence', 'inferred', 'unknown') as fc.Arbitrary<
        ClaimBody['epistemic_status']
      >,
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constantFrom('replace' as const, 'invalidate' as const, 'delete' as const),
      pick: fc.nat(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('dispute' as const),
      picks: fc.tuple(fc.nat(), fc.nat()),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('candidate' as const), pick: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteTask' as const) }) },
);

/** A command for the step, on claims the task has held (some of them gone: refused then). */
const commandOf = (s: Step, n: number, ids: readonly string[]): TaskCommand => {
  const pick = (i: number) => ids[i % Math.max(1, ids.length)] ?? 'none';
  const fresh = `c${n}`;
  switch (s.kind) {
    case 'add':
      return { type: 'AddClaim', data: { ...on, claim: claim(fresh, s.status) } };
    case 'replace':
      return {
        type: 'ReplaceClaim',
        data: { ...on, claim: claim(fresh, 'explicit', { supersedes: [pick(s.pick)] }) },
      };
    case 'invalidate': {
      const source_ref = {
        kind: 'user_event' as const,
        event_id: 'u',
        sha256: null,
        excerpt: null,
      };
      return {
        type: 'InvalidateClaim',
        data: { ...on, claim_id: pick(s.pick), reason: 'no', source_ref },
      };
    }
    case 'delete':
      return { type: 'DeleteClaim', data: { ...on, claim_id: pick(s.pick) } };
    case 'dispute': {
      const disputes = [...new Set(s.picks.map(pick))];
      return { type: 'AddClaim', data: { ...on, claim: claim(fresh, 'disputed', { disputes }) } };
    }
    case 'candidate':
      return {
        type: 'RecordCandidate',
        data: {
          ...on,
          candidate_id: `k${s.pick}`,
          origin: 'hook',
          hook_event: 'UserPromptSubmit',
          event_id: null,
          sha256: 'ab'.repeat(32),
        },
      };
    case 'deleteTask':
      return { type: 'DeleteTask', data: on };
  }
};

describe('intent task state in maps', () => {
  it('answers as the plain reading of its events, now and on every earlier state', () =>
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const events: IntentEvent[] = [started];
        let state = taskDecider.evolve(taskDecider.initialState(), events[0]!);
        const kept: [TaskState, number][] = [[state, 1]];
        const ids: string[] = [];
        steps.forEach((s, n) => {
          let decided: IntentEvent[];
          try {
            decided = decideTask(commandOf(s, n, ids), state);
          } catch (error) {
            if (isDomainError(error)) return;
            throw error;
          }
          for (const e of decided) {
            if (e.type === 'intent.claim_added') ids.push(e.data.claim.claim_id);
            events.push(e);
            state = taskDecider.evolve(state, e);
          }
          assert.deepEqual(read(state), plainReading(events));
          kept.push([state, events.length]);
        });
        for (const [old, length] of kept)
          assert.deepEqual(read(old), plainReading(events.slice(0, length)));
      }),
      { numRuns: 200 },
    ));
});
