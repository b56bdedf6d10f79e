import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { ClaimInput } from '../../commands/intent/claim-input.js';
import { intentError } from '../../commands/intent/errors.js';
import { checkClaimInput } from '../../commands/intent/input-checks.js';
import type { IntentMode } from '../../events/intent/index.js';
import type { Scope } from './define.js';
import * as L from './loop-forms.js';
import type * as S from './schemas.js';

type StartArgs = {
  task_id?: string | undefined;
  host_session_id?: string | undefined;
  request_id?: string | undefined;
  claims?: z.output<typeof S.ClaimSpec>[] | undefined;
  initial_explicit?: L.InitialExplicit | undefined;
  mode?: IntentMode | undefined;
  label?: string | undefined;
};

/** The start's initial claims, from `claims` or intent-loop's `initial_explicit`. */
const claimsOf = (args: StartArgs): ClaimInput[] => {
  const initial = L.oneOf<unknown[]>(
    ['claims', args.claims],
    ['initial_explicit', args.initial_explicit],
  );
  if (initial === undefined || initial.length === 0) return [];
  if (args.claims) return args.claims;
  // the start is the user event its claims came from; a retry names it the same way
  const ref = `intent_start_task:${args.request_id ?? randomUUID()}`;
  return L.initialClaims(args.initial_explicit!, ref);
};

/**
 * A task start in either form. On (the default): the task and its claims in one append. Private
 * or off (intent-loop's `mode`): the task starts empty, its mode is set, and a private task's
 * claims go to this process's memory as every private write does: no claim of a private start
 * reaches the disk. Off records no label or claim, as intent-loop refuses them.
 */
export const startTask = async (args: StartArgs, scope: Scope) => {
  const claims = claimsOf(args);
  for (const claim of claims) checkClaimInput(claim);
  const label = L.checkLabel(args.label);
  const mode = args.mode ?? 'on';
  if (mode === 'private' && args.host_session_id === undefined)
    throw intentError(
      'PRIVATE_TOKEN_REQUIRED',
      'private mode needs host_session_id, the hidden host token that lets Hooks stay quiet',
    );
  if (mode === 'off' && (label !== null || claims.length > 0))
    throw intentError(
      'MODE_OFF_SEMANTIC_INPUT',
      'a task started off records no label and no claims',
      { field: label !== null ? 'label' : 'initial_explicit' },
    );
  const { service, call } = scope;
  const started = await service.startTask(call, {
    task_id: args.task_id,
    host_session_id: args.host_session_id,
    claims: mode === 'on' ? claims : [],
  });
  const { task_id } = started;
  if (args.mode !== undefined)
    // its own retry key would be the start's, answered by the start: mode setting is idempotent
    await service.setMode({ ...call, request_id: undefined }, task_id, mode, args.host_session_id);
  const privateClaims = [];
  if (mode === 'private')
    for (const [i, claim] of claims.entries()) {
      const request_id = call.request_id === undefined ? undefined : `${call.request_id}#${i}`;
      const outcome = await service.claimOp(
        { ...call, request_id },
        task_id,
        'intent_start_task.claim',
        { task_id, claim },
        claim,
        'AddClaim',
      );
      if (outcome.kind === 'written') privateClaims.push(outcome.result);
    }
  const result = {
    task_id,
    created: started.result.created,
    label,
    claims: mode === 'private' ? privateClaims : started.result.claims,
  };
  return { ...started, result };
};
