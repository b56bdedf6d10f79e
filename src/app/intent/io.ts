import { randomUUID } from 'node:crypto';
import {
  GRAPH_FORMAT,
  GRAPH_VERSION,
  importClaims,
  sealGraph,
  type IntentGraph,
} from '../../commands/intent/graph.js';
import { intentError, taskNotFound } from '../../commands/intent/errors.js';
import { decideTask } from '../../commands/intent/task.js';
import { checkReach } from '../../commands/intent/task-access.js';
import { claimSubject, taskSubject } from '../../events/intent/index.js';
import type { EventLog } from '../../events/index.js';
import { filesHolding } from '../../events/level/level-scan.js';
import type { ClaimView } from '../../projections/intent/snapshot-view.js';
import type { IntentCall } from './index.js';
import type { IntentReads, TaskView } from './reads.js';
import type { PrivateStore } from './private.js';
import {
  loadLogTask,
  loadTask,
  offStatus,
  taskStreamOf,
  type intentWrites,
  type Written,
} from './writes.js';

/** Export, import and verified delete of intent tasks. */

export const toGraph = (view: TaskView, exportedAt: string): IntentGraph =>
  sealGraph({
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
  store: PrivateStore,
  clock: () => string,
) => {
  const importGraph = async (call: IntentCall, task_id: string, graph: unknown) => {
    // the task first: a task the caller cannot reach answers the same whatever the graph holds
    const state = await loadTask(log, await taskStreamOf(log, call.project_id, task_id), store);
    checkReach(state, call.principal);
    if (!state.exists) throw taskNotFound();
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
          invalidated: mapped.invalidated,
          now: clock(),
          route,
        },
      }),
      respond: (state) => ({
        import_id,
        imported_claims: mapped.claims.length,
        id_map_size: mapped.claims.length,
        invalidated_history: mapped.invalidated.length,
        integrity_checked: mapped.integrity_checked,
        incomplete_external_history: true as const,
        merged_into_existing: 0 as const,
        task_claims_after: state.claims.size,
      }),
    });
  };

  /**
   * Deletes by tombstone, then shreds each claim's key; a retry re-runs the shred. The task is
   * read from the log and this process's private memory, so a private task's claims are
   * deleted wherever they are: a claim held only in memory is forgotten there (nothing is
   * appended: its id never reaches the disk), and a private task is deletable after a restart.
   */
  const remove = async (
    call: IntentCall,
    task_id: string,
    claim_id: string | undefined,
    dataDir: string | undefined,
  ): Promise<Written<{ deleted_claims: string[] }> & { verification?: DeleteVerification }> => {
    const stream = await taskStreamOf(log, call.project_id, task_id);
    const state = await loadTask(log, stream, store);
    checkReach(state, call.principal);
    if (!state.exists) throw taskNotFound();
    if (state.deleted) throw intentError('TASK_DELETED', 'the task was deleted', { task_id });
    if (state.mode === 'off') return { kind: 'off', status: offStatus() };
    const targets =
      claim_id === undefined
        ? [...state.claims.values()]
        : [state.claims.get(claim_id)].filter((c) => c !== undefined);
    if (claim_id !== undefined && targets.length === 0)
      throw intentError('CLAIM_NOT_FOUND', 'no such claim in this task', { claim_id });
    const onDisk = await loadLogTask(log, stream);
    const deleted_claims = targets.map((c) => c.body.claim_id);
    const outcome =
      claim_id !== undefined && !onDisk.claims.has(claim_id)
        ? await forgetPrivate(stream, claim_id, deleted_claims)
        : withIds(
            await writes.write({
              ...call,
              task_id,
              operation: 'intent_delete',
              args: { task_id, claim_id: claim_id ?? null },
              persist: true,
              command: () =>
                claim_id === undefined
                  ? { type: 'DeleteTask', data: { now: clock() } }
                  : { type: 'DeleteClaim', data: { claim_id, now: clock() } },
              // the stored answer (an idempotency record, in clear) holds no id it deletes
              respond: () => ({ deleted_claims: deleted_claims.length }),
            }),
            deleted_claims,
          );
    for (const id of deleted_claims) {
      const held = onDisk.claims.get(id);
      if (!held) continue;
      await log.shred(claimSubject(id));
      // a claim written before refs: its content and its key are under its legacy subject
      if (held.subject !== claimSubject(id)) await log.shred(held.subject);
    }
    if (claim_id === undefined) {
      store.drop(stream);
      // the task's own events and its head (they hold its id) go with the task's key
      if (outcome.kind === 'written') await log.shred(taskSubject(task_id));
    }
    const texts = targets.flatMap((c) => [c.body.statement, c.body.source_ref.excerpt ?? '']);
    return {
      ...outcome,
      verification: await verify(call, task_id, texts, deleted_claims, dataDir),
    };
  };

  /** The answer with the ids deleted, which the stored answer leaves out. */
  const withIds = (
    outcome: Written<{ deleted_claims: number }>,
    deleted_claims: string[],
  ): Written<{ deleted_claims: string[] }> =>
    outcome.kind === 'off' ? outcome : { ...outcome, result: { deleted_claims } };

  /** A private claim this process holds only in memory: forgotten there, under its tombstone. */
  const forgetPrivate = (stream: string, claim_id: string, deleted_claims: string[]) =>
    store.serially(stream, async () => {
      const [tombstone] = decideTask(
        { type: 'DeleteClaim', data: { claim_id, now: clock() } },
        await loadTask(log, stream, store),
      );
      if (tombstone) store.forget(stream, claim_id, tombstone);
      return { kind: 'written' as const, result: { deleted_claims }, position: 0, replayed: false };
    });

  /** Checks the deleted texts and ids are in no view or export, and (LevelDB) in no file. */
  const verify = async (
    call: IntentCall,
    task_id: string,
    texts: string[],
    ids: string[],
    dataDir: string | undefined,
  ): Promise<DeleteVerification> => {
    const after = await reads.view(call, task_id).catch(() => undefined);
    const visible = after && 'head' in after ? JSON.stringify(after.claims) : '';
    const exported = after && 'head' in after ? JSON.stringify(toGraph(after, clock())) : '';
    const files = dataDir === undefined ? [] : await filesHolding(dataDir, texts);
    const clear = (json: string) => [...texts, ...ids].every((t) => t === '' || !json.includes(t));
    return {
      view_clear: clear(visible),
      export_clear: clear(exported),
      bytes_clear: dataDir === undefined ? null : files.length === 0,
      files_holding: files.map((f) => f.slice(dataDir!.length + 1)),
    };
  };

  return { importGraph, remove };
};
