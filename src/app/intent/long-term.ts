import { randomUUID } from 'node:crypto';
import { toClaimBody, type ClaimInput } from '../../commands/intent/claim-input.js';
import { intentError } from '../../commands/intent/errors.js';
import { PROMOTION_TASKS } from '../../commands/intent/task.js';
import type { ClaimBody } from '../../events/intent/index.js';
import type { ClaimView } from '../../projections/intent/snapshot-view.js';
import type { IntentCall } from './index.js';
import type { IntentReads } from './reads.js';
import type { intentWrites, Written } from './writes.js';

/**
 * The long-term rule (contracts/intent.md): a long-term inference waits as a candidate until
 * it recurred in three distinct tasks and the user confirmed it; the confirmation is the user's
 * own wording, a new user-explicit claim that supersedes the candidate.
 */

/** What makes two candidates one preference: the caller's signal key, else the statement. */
export const signalOf = (body: ClaimBody): string =>
  body.signal_key ?? body.statement.toLowerCase().replace(/\s+/g, ' ').trim();

/** A candidate that counts for recurrence: waiting, or already confirmed (it did recur). */
const recurred = (c: ClaimView): boolean => c.body.candidate && (c.life === 'active' || c.promoted);

/** A candidate the user may still confirm. */
const waiting = (c: ClaimView): boolean => c.body.candidate && !c.promoted && c.life === 'active';

export type ConfirmArgs = {
  /** the candidate confirmed; absent: the task's one eligible candidate */
  claim_id?: string | undefined;
  input: ClaimInput;
  confirmation_event_id: string;
};

export type ConfirmResult = {
  claim_id: string;
  epistemic_status: 'explicit';
  scope: 'long_term';
  candidate: false;
  supersedes: string[];
  promoted_from: string;
  redactions: number;
  truncated: boolean;
};

export const longTerm = (
  reads: IntentReads,
  writes: ReturnType<typeof intentWrites>,
  clock: () => string,
) => {
  /**
   * The distinct tasks of the project holding a candidate with this signal, sorted, among the
   * caller's own (another's tasks are not counted: the count would tell what they hold). Read
   * at call time from live tasks, so a deleted task drops out.
   */
  const recurrence = async (call: IntentCall, signal: string): Promise<string[]> => {
    const tasks: string[] = [];
    for (const head of await reads.tasks(call)) {
      if (head.deleted || head.mode !== 'on') continue;
      const view = await reads.view(call, head.task_id).catch(() => undefined);
      if (
        view &&
        'head' in view &&
        view.claims.some((c) => recurred(c) && signalOf(c.body) === signal)
      )
        tasks.push(head.task_id);
    }
    return tasks.sort();
  };

  /** The candidate a confirmation names, or the task's only one that recurred in three tasks. */
  const target = async (call: IntentCall, claims: readonly ClaimView[], named?: string) => {
    if (named !== undefined) {
      const claim = claims.find((c) => c.body.claim_id === named);
      if (!claim)
        throw intentError('CLAIM_NOT_FOUND', 'no such claim in this task', { claim_id: named });
      return { claim, tasks: await recurrence(call, signalOf(claim.body)) };
    }
    const eligible = [];
    for (const claim of claims.filter(waiting)) {
      const tasks = await recurrence(call, signalOf(claim.body));
      if (tasks.length >= PROMOTION_TASKS) eligible.push({ claim, tasks });
    }
    if (eligible.length === 0)
      throw intentError(
        'LONG_TERM_CONFIRMATION_REQUIRED',
        'no long-term candidate of this task recurred in three distinct tasks yet',
      );
    if (eligible.length > 1)
      throw intentError(
        'INVALID_ARGUMENT',
        'several long-term candidates are eligible: name the one confirmed (confirms_claim_id)',
        { candidates: eligible.map((e) => e.claim.body.claim_id) },
      );
    return eligible[0]!;
  };

  /** The user confirms a long-term candidate; answered with the new user-explicit claim. */
  const confirm = async (
    call: IntentCall,
    task_id: string,
    args: ConfirmArgs,
  ): Promise<Written<ConfirmResult>> => {
    const view = await reads.view(call, task_id);
    if (!('head' in view)) return { kind: 'off', status: view };
    const { claim: candidate, tasks } = await target(call, view.claims, args.claim_id);
    const claim_id = candidate.body.claim_id;
    const now = clock();
    const { body, report } = toClaimBody(
      { ...args.input, scope: 'long_term', basis: 'confirmed_candidate', supersedes: [claim_id] },
      { claim_id: randomUUID(), now },
    );
    const claim: ClaimBody = { ...body, candidate: false };
    return writes.write({
      ...call,
      task_id,
      operation: 'intent_add_explicit',
      args: { task_id, confirms_claim_id: claim_id, input: args.input },
      command: (route) => ({
        type: 'PromoteClaim',
        data: {
          claim_id,
          recurrence_tasks: tasks,
          confirmation_event_id: args.confirmation_event_id,
          claim,
          now,
          route,
        },
      }),
      respond: () => ({
        claim_id: claim.claim_id,
        epistemic_status: 'explicit' as const,
        scope: 'long_term' as const,
        candidate: false as const,
        supersedes: [claim_id],
        promoted_from: claim_id,
        ...report,
      }),
    });
  };

  return { recurrence, confirm };
};
