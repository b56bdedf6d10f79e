import { createHash } from 'node:crypto';
import type { Route, TaskCommand } from '../../commands/intent/task.js';
import { principalId, SYSTEM } from '../../commands/principal.js';
import { INTENT_SNAPSHOT, type IntentTaskHead } from '../../projections/intent/snapshot.js';
import type { WriterContext } from '../kernel-module.js';
import { intentService, type IntentService } from './index.js';
import type { SpoolRecord } from './hook-spool.js';
import { CONTEXT_MAX, type HookView, type HookViewTask } from './hook-view-file.js';

/**
 * The writer's side of the Hooks (contracts/intent.md, "Hook-only command surface"): it folds
 * what Hooks spooled into the log and builds the view a Hook reads (hook-keeper.ts runs both).
 * Hooks record only hashes and metadata, never promote a candidate, and act as SYSTEM with the
 * actor id `hook`.
 */
export { HOOK_EVENTS, type HookEvent, type HookInput, type HookOutput } from './hook-wire.js';

const asSystem = (project_id: string) => ({ project_id, principal: SYSTEM });

/**
 * The writer's Hook side works on the writer's own log and read models (WriterContext), with
 * intent services of its own over them: it keeps working while the app closes (its last views
 * are written then) and acts only on tasks whose mode is on, so holds no private state.
 */
export type HookHost = WriterContext & { service: IntentService };

export const hookHost = (writer: WriterContext): HookHost => ({
  ...writer,
  service: intentService(
    writer.log,
    (position) => writer.waitFor(position, [INTENT_SNAPSHOT, 'projects']),
    () => writer.app.clock().toISOString(),
  ),
});

/**
 * The Hooks run in the local user's host, so they act only on the local user's tasks: those
 * SYSTEM started (over stdio, or SYSTEM's token). Another principal's task never becomes a
 * local session's, whatever host session it names: its statements are never said to the local
 * agent, and the local user's prompts are never recorded into it (issue 40).
 */
export const isLocalUsers = (head: Pick<IntentTaskHead, 'owner'>): boolean =>
  head.owner === principalId(SYSTEM);

/** The task a host session feeds: of the local user's tasks it was bound to, the one bound last. */
export const sessionHead = (
  heads: readonly IntentTaskHead[],
  session: string,
): IntentTaskHead | undefined =>
  heads
    .filter((h) => h.host_session_hash === session && !h.deleted && isLocalUsers(h))
    .reduce<IntentTaskHead | undefined>(
      (last, h) => (last && last.associated_position > h.associated_position ? last : h),
      undefined,
    );

/**
 * The view of a project a Hook reads: every task of the local user's a session feeds, direct
 * statements as text.
 */
export const hookViewOf = async ({ service }: HookHost, project: string): Promise<HookView> => {
  const heads = await service.reads.tasks(asSystem(project));
  const tasks: HookViewTask[] = [];
  for (const head of heads) {
    if (head.deleted || head.host_session_hash === null || !isLocalUsers(head)) continue;
    const said = head.mode === 'on' ? await service.reads.direct(project, head.task_id) : [];
    tasks.push({
      task_id: head.task_id,
      session_hash: head.host_session_hash,
      position: head.associated_position,
      mode: head.mode,
      recovery: head.recovery ? head.recovery.state : null,
      active: head.mode === 'on' ? head.active : 0,
      direct: (said ?? []).slice(0, CONTEXT_MAX).map((s) => s.statement),
    });
  }
  return { v: 1, project_id: project, tasks };
};

type HookWrite = (route: Route) => TaskCommand;

/** Writes one Hook command on a task whose mode is on, deduplicated by the record's id. */
const hookWrite = async (
  { service }: HookHost,
  task: IntentTaskHead,
  id: string,
  command: HookWrite,
) => {
  if (task.mode !== 'on') return;
  await service.writes.write({
    project_id: task.project_id,
    task_id: task.task_id,
    principal: SYSTEM,
    actor_id: 'hook',
    operation: 'hook',
    args: { spooled: id },
    request_id: `hook-spool:${id}`,
    persist: true,
    command,
    respond: () => null,
  });
};

/** A UUID made of the record's id: the candidate a record makes has one id, however often folded. */
const candidateIdOf = (recordId: string): string => {
  const hex = createHash('sha256').update(`intent-hook-candidate\0${recordId}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/**
 * After the host compacted its context: checks that the task still reads back whole (the read
 * models fold without error and its view loads), then flags recovery, so the next SessionStart
 * tells the agent to reread the task rather than trust a compacted summary.
 */
const flagRecovery = async (host: HookHost, task: IntentTaskHead, id: string) => {
  const status = await host.status().catch(() => undefined);
  const folds = status?.every((s) => s.error === undefined) ?? false;
  const view = await host.service.reads
    .view(asSystem(task.project_id), task.task_id)
    .catch(() => undefined);
  const state = folds && view !== undefined && 'head' in view ? 'verified' : 'unverified';
  await hookWrite(host, task, id, () => ({
    type: 'FlagRecovery',
    data: { now: host.service.clock(), state },
  }));
};

/**
 * Folds one spooled record into the log, as the Hook would have written it: a candidate (ids
 * and a hash, never the prompt) on the session's task, a recovery flag, or a recovery served.
 * A record whose project or task is gone, or whose task is not on, is dropped: it records
 * nothing, as the Hook would not have. Appending it twice appends it once (its request_id).
 */
export const foldSpooled = async (host: HookHost, record: SpoolRecord): Promise<void> => {
  const { service } = host;
  const project = await service.projects.lookup({
    canonical: '',
    hash: record.root,
    source: 'project_root',
  });
  if (project === undefined) return;
  await host.waitFor(await host.log.head(), [INTENT_SNAPSHOT]);
  const heads = await service.reads.tasks(asSystem(project));
  if (record.kind === 'served') {
    const task = heads.find((h) => h.task_id === record.task_id && !h.deleted && isLocalUsers(h));
    if (task?.recovery)
      await hookWrite(host, task, record.id, () => ({
        type: 'ServeRecovery',
        data: { now: service.clock() },
      }));
    return;
  }
  const task = sessionHead(heads, record.session);
  if (!task) return;
  if (record.kind === 'post-compact') return flagRecovery(host, task, record.id);
  await hookWrite(host, task, record.id, (route) => ({
    type: 'RecordCandidate',
    data: {
      candidate_id: candidateIdOf(record.id),
      origin: 'hook',
      hook_event: record.kind,
      event_id: null,
      sha256: record.sha256 ?? '',
      now: service.clock(),
      route,
    },
  }));
};
