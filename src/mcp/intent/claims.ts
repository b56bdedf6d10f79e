import { z } from 'zod';
import type { ClaimInput } from '../../commands/intent/claim-input.js';
import type { Written } from '../../app/intent/writes.js';
import { intentError } from '../../commands/intent/errors.js';
import {
  checkClaimInput,
  checkSource,
  checkStatement,
} from '../../commands/intent/input-checks.js';
import { ExplicitBasis, FeedbackClass, type SourceKind } from '../../events/intent/index.js';
import type { AnyTool } from '../tool.js';
import { unadvertised } from '../unadvertised.js';
import { intentTool, type IntentAnswer, type Scope } from './define.js';
import { flatReplacement, oneOf, replacementOf } from './loop-forms.js';
import * as S from './schemas.js';

/** The claim-writing tools: each maps onto one command on the task's stream. */

const ClaimOrOff = z.union([S.ClaimResult, S.OffStatus]);
type ClaimOrOff = z.infer<typeof ClaimOrOff>;

/** A write's answer: the claim, or the task's off status (not an error: nothing was written). */
export const answer = <R>(
  outcome: Written<R>,
  task_id: string,
  summary: (r: R) => string,
): IntentAnswer<R | z.infer<typeof S.OffStatus>> =>
  outcome.kind === 'off'
    ? { result: outcome.status, task_id, summary: `task ${task_id} is off: nothing recorded` }
    : {
        result: outcome.result,
        task_id,
        summary: summary(outcome.result),
        replayed: outcome.replayed,
        ...(outcome.position > 0 ? { position: outcome.position } : {}),
      };

const claimSummary = (r: { claim_id: string; epistemic_status: string; candidate: boolean }) =>
  `${r.epistemic_status} claim ${r.claim_id} recorded${r.candidate ? ' as a long-term candidate' : ''}`;

const add = async (
  operation: string,
  args: { task_id: string } & Record<string, unknown>,
  input: ClaimInput,
  scope: Scope,
  allowed?: readonly SourceKind[],
): Promise<IntentAnswer<ClaimOrOff>> => {
  checkClaimInput(input, allowed);
  const { project_root: _root, ...fingerprinted } = args;
  const outcome = await scope.service.claimOp(
    scope.call,
    args.task_id,
    operation,
    fingerprinted,
    input,
    input.supersedes ? 'ReplaceClaim' : 'AddClaim',
  );
  return answer(outcome, args.task_id, claimSummary);
};

const common = { task_id: S.TaskId, request_id: S.RequestId };
const mutation = { output: ClaimOrOff, kind: 'mutation' as const, idempotent: true };

export const claimTools: AnyTool[] = [
  intentTool({
    name: 'intent_add_explicit',
    title: 'Add a user-explicit claim',
    description:
      'Records what the user said (direct_statement) or confirmed (confirmed_candidate), from a ' +
      'user event; tool output is evidence, never explicit. confirmed_candidate with scope ' +
      'long_term (or confirms_claim_id) confirms a long-term candidate that recurred in three ' +
      'tasks, in the user’s words.',
    args: {
      ...common,
      statement: S.Statement,
      confirmation_reason: ExplicitBasis.optional(),
      basis: unadvertised(ExplicitBasis.optional(), 'confirmation_reason'),
      source_ref: S.AnySource.describe('a user_event'),
      confirms_claim_id: S.ClaimId.optional().describe('the long-term candidate confirmed'),
      ...S.claimFields,
    },
    ...mutation,
    async run(args, scope) {
      const basis = oneOf(['basis', args.basis], ['confirmation_reason', args.confirmation_reason]);
      if (basis === undefined)
        throw intentError(
          'INVALID_ARGUMENT',
          'a user-explicit claim needs basis (or confirmation_reason)',
        );
      const confirming =
        args.confirms_claim_id !== undefined ||
        (basis === 'confirmed_candidate' && args.scope === 'long_term');
      if (!confirming)
        return add(
          'intent_add_explicit',
          args,
          { ...args, basis, epistemic_status: 'explicit' },
          scope,
          ['user_event'],
        );
      if (basis !== 'confirmed_candidate')
        throw intentError(
          'INVALID_ARGUMENT',
          'confirming a candidate needs basis confirmed_candidate',
        );
      const { task_id, statement, source_ref, role, facets } = args;
      checkClaimInput({ statement, source_ref }, ['user_event']);
      const outcome = await scope.service.longTerm.confirm(scope.call, task_id, {
        claim_id: args.confirms_claim_id,
        input: { epistemic_status: 'explicit', statement, source_ref, role, facets },
        confirmation_event_id: args.source_ref.event_id ?? args.source_ref.sha256 ?? '',
      });
      return answer(outcome, task_id, (r) => `long-term claim ${r.promoted_from} confirmed`);
    },
  }),
  intentTool({
    name: 'intent_add_inference',
    title: 'Add an agent inference',
    description:
      'Records what you infer the user wants, with a confidence (0..1) and a minimal source. ' +
      'It stays inferred; a long-term one waits as a candidate.',
    args: {
      ...common,
      statement: S.Statement,
      confidence: z.number().min(0).max(1),
      source_ref: S.AnySource,
      signal_key: S.SignalKey,
      ...S.claimFields,
    },
    ...mutation,
    run: (args, scope) =>
      add('intent_add_inference', args, { ...args, epistemic_status: 'inferred' }, scope),
  }),
  intentTool({
    name: 'intent_add_evidence',
    title: 'Add evidence',
    description:
      'Records result feedback or tool/external evidence, with its feedback_class for result ' +
      'feedback. Evidence stays evidence; only the user makes a claim explicit.',
    args: {
      ...common,
      statement: S.Statement,
      source_ref: S.AnySource,
      feedback_class: FeedbackClass.optional(),
      ...S.claimFields,
    },
    ...mutation,
    run: (args, scope) =>
      add('intent_add_evidence', args, { ...args, epistemic_status: 'evidence' }, scope, [
        'tool_result',
        'external_evidence',
        'user_event',
      ]),
  }),
  intentTool({
    name: 'intent_mark_unknown',
    title: 'Mark an unknown',
    description: 'Records a first-class unknown and, if named, the decision it affects.',
    args: {
      ...common,
      statement: S.Statement,
      affects_decision: z.string().trim().min(1).max(2000).optional(),
      source_ref: S.AnySource,
      ...S.claimFields,
    },
    ...mutation,
    run: (args, scope) =>
      add('intent_mark_unknown', args, { ...args, epistemic_status: 'unknown' }, scope),
  }),
  intentTool({
    name: 'intent_mark_dispute',
    title: 'Mark a dispute',
    description:
      'Records a disagreement between two or more claims (related_claim_ids), or a free-standing ' +
      'one. It picks no winner: the user resolves it.',
    args: {
      ...common,
      statement: S.Statement,
      related_claim_ids: z.array(S.ClaimId).max(50).optional(),
      claim_ids: unadvertised(z.array(S.ClaimId).max(50).optional(), 'related_claim_ids'),
      source_ref: S.AnySource,
      ...S.claimFields,
    },
    ...mutation,
    run: (args, scope) => {
      const { claim_ids, related_claim_ids, ...rest } = args;
      const disputes = oneOf(['claim_ids', claim_ids], ['related_claim_ids', related_claim_ids]);
      return add(
        'intent_mark_dispute',
        args,
        { ...rest, epistemic_status: 'disputed', disputes: disputes ?? [] },
        scope,
      );
    },
  }),
  intentTool({
    name: 'intent_replace_claim',
    title: 'Replace claims',
    description:
      'Atomically adds a corrected claim (replacement_kind and its fields) and supersedes active ' +
      'claims, keeping their history. A user-explicit claim is replaced only by the user’s own ' +
      'direct statement.',
    args: {
      ...common,
      supersedes: z.array(S.ClaimId).min(1).max(50),
      ...flatReplacement,
      claim: unadvertised(S.ClaimSpec.optional(), 'replacement_kind'),
    },
    ...mutation,
    run: (args, scope) => {
      const whole = args as typeof args & { project_root?: string };
      const { task_id: _t, request_id: _r, project_root: _p, supersedes, claim, ...flat } = whole;
      const input = replacementOf(claim, flat);
      return add('intent_replace_claim', args, { ...input, supersedes }, scope);
    },
  }),
  intentTool({
    name: 'intent_invalidate',
    title: 'Invalidate a claim',
    description:
      'Marks an active claim invalid, with a reason and a source; it leaves the snapshot. A ' +
      'user-explicit claim is invalidated only on a user event.',
    args: {
      ...common,
      claim_id: S.ClaimId,
      reason: z.string().trim().min(1).max(2000),
      source_ref: S.AnySource,
    },
    output: z.union([
      z.object({ claim_id: z.string(), life: z.literal('invalidated') }),
      S.OffStatus,
    ]),
    kind: 'mutation',
    idempotent: true,
    async run(args, scope) {
      const { task_id, claim_id, reason } = args;
      checkStatement(reason, 'reason');
      checkSource(args.source_ref);
      const source_ref = {
        kind: args.source_ref.kind,
        event_id: args.source_ref.event_id ?? null,
        sha256: args.source_ref.sha256 ?? null,
        excerpt: args.source_ref.excerpt ?? null,
      };
      const outcome = await scope.service.invalidate(scope.call, task_id, {
        claim_id,
        reason,
        source_ref,
      });
      return answer(outcome, task_id, () => `claim ${claim_id} invalidated`);
    },
  }),
];
