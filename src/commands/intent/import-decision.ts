import { claimSubject, type ClaimBody } from '../../events/intent/index.js';
import { intentError } from './errors.js';
import type { IntentEvent, TaskState } from './task-state.js';

export type ImportData = {
  import_id: string;
  format_version: number;
  claims: ClaimBody[];
  /** imported claims the exported task had invalidated: history, never current */
  invalidated?: string[] | undefined;
  now: string;
};

/**
 * An import: recorded as incomplete external history, its claims added (by the task's own
 * rules, `addAll`), then the ones the exported task had invalidated invalidated again, so they
 * arrive as history and never as current intent. An import never displaces what the task
 * holds: its supersessions stay inside it.
 */
export const decideImport = (
  state: TaskState,
  data: ImportData,
  addAll: (claims: readonly ClaimBody[]) => IntentEvent[],
): IntentEvent[] => {
  const { import_id, format_version, claims, now } = data;
  const on = { project_id: state.project_id, task_id: state.task_id };
  const own = new Set(claims.map((c) => c.claim_id));
  if (claims.some((c) => c.supersedes.some((id) => !own.has(id))))
    throw intentError('IMPORT_INVALID', 'an imported claim supersedes only imported claims');
  const recorded: IntentEvent = {
    type: 'intent.import_recorded',
    data: {
      ...on,
      import_id,
      format_version,
      claim_count: claims.length,
      incomplete_history: true,
      imported_at: now,
    },
  };
  const history = (data.invalidated ?? []).map((claim_id): IntentEvent => {
    const claim = claims.find((c) => c.claim_id === claim_id);
    if (!claim) throw intentError('IMPORT_INVALID', 'an invalidated id names no imported claim');
    return {
      type: 'intent.claim_invalidated',
      data: {
        ...on,
        claim_id,
        reason: 'invalidated in the exported task',
        source_ref: claim.source_ref,
        invalidated_at: now,
      },
      metadata: { seal: claimSubject(claim_id) },
    };
  });
  return [recorded, ...addAll(claims), ...history];
};
