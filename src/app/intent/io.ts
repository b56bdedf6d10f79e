import { randomUUID } from 'node:crypto';
import {
  GRAPH_FORMAT,
  GRAPH_VERSION,
  importClaims,
  type IntentGraph,
} from '../../commands/intent/graph.js';
import { intentError } from '../../commands/intent/errors.js';
import { claimSubject } from '../../events/intent/index.js';
import type { EventLog } from '../../events/index.js';
import { filesHolding } from '../../events/level/level-scan.js';
import type { ClaimView } from '../../projections/intent/snapshot-view.js';
import type { IntentCall } from './index.js';
import type { IntentReads, TaskView } from './reads.js';
import type { intentWrites } from './writes.js';
import { type Written } from './writes.js';

/** Export, import and verified delete of intent tasks. */

export const toGraph = (view: TaskView, exportedAt: string): IntentGraph => ({
  format: GRAPH_FORMAT,
  format_version: GRAPH_VERSION,
  exported_at: exportedAt,
  task: { task_id: view.head.task_id, mode: view.head.mode },
  incomplete_history: view.head.imports > 0,
  claims: view.claims.map(({ body, life }: ClaimView) => {
    const { import_id: _import, ...rest } = body;
    return { ...rest, life };
  }),
});

export type DeleteVerification = {
  view_clear: boolean;
  export_clear: boolean;
  bytes_clear: boolean | null;
  files_holding: string[];
};

export const intentIo = (
  log: EventLog,
  reads: IntentReads,
  writes: ReturnType<typeof intentWrites>,
  clock: () => string,
) => {
  const importGraph = (call: IntentCall, task_id: string, graph: unknown) => {
    const import_id = randomUUID();
    const mapped = importClaims(graph, { import_id, newId: randomUUID });
    return writes.write({
      ...call,
      task_id,
      operation: 'intent_import',
      args: { task_id, graph },
      command: (route) => ({
        type: 'ImportClaims',
        data: {
          import_id,
          format_version: GRAPH_VERSION,
          claims: mapped.claims,
          now: clock(),
          route,
        },
      }),
      respond: (state) => ({
        import_id,
        imported_claims: mapped.claims.length,
        id_map_size: mapped.claims.length,
        skipped_invalidated: mapped.skipped_invalidated,
        incomplete_external_history: true as const,
        merged_into_existing: 0 as const,
        task_claims_after: state.claims.size,
      }),
    });
  };

  /** Deletes by tombstone, then shreds each claim's key; a retry re-runs the shred. */
  const remove = async (
    call: IntentCall,
    task_id: string,
    claim_id: string | undefined,
    dataDir: string | undefined,
  ): Promise<Written<{ deleted_claims: string[] }> & { verification?: DeleteVerification }> => {
    const view = await reads.view(call, task_id);
    if (!('head' in view)) return { kind: 'off', status: view };
    const targets = view.claims.filter(
      (c) => claim_id === undefined || c.body.claim_id === claim_id,
    );
    if (claim_id !== undefined && targets.length === 0)
      throw intentError('CLAIM_NOT_FOUND', 'no such claim in this task', { claim_id });
    const outcome = await writes.write({
      ...call,
      task_id,
      operation: 'intent_delete',
      args: { task_id, claim_id: claim_id ?? null },
      persist: true,
      command: () =>
        claim_id === undefined
          ? { type: 'DeleteTask', data: { now: clock() } }
          : { type: 'DeleteClaim', data: { claim_id, now: clock() } },
      respond: () => ({ deleted_claims: targets.map((c) => c.body.claim_id) }),
    });
    for (const c of targets) await log.shred(claimSubject(c.body.claim_id));
    const texts = targets.flatMap((c) => [c.body.statement, c.body.source_ref.excerpt ?? '']);
    return { ...outcome, verification: await verify(call, task_id, texts, dataDir) };
  };

  const verify = async (
    call: IntentCall,
    task_id: string,
    texts: string[],
    dataDir: string | undefined,
  ): Promise<DeleteVerification> => {
    const after = await reads.view(call, task_id).catch(() => undefined);
    const visible = after && 'head' in after ? JSON.stringify(after.claims) : '';
    const exported = after && 'head' in after ? JSON.stringify(toGraph(after, clock())) : '';
    const files = dataDir === undefined ? [] : await filesHolding(dataDir, texts);
    return {
      view_clear: texts.every((t) => t === '' || !visible.includes(t)),
      export_clear: texts.every((t) => t === '' || !exported.includes(t)),
      bytes_clear: dataDir === undefined ? null : files.length === 0,
      files_holding: files.map((f) => f.slice(dataDir!.length + 1)),
    };
  };

  return { importGraph, remove };
};
