import { createHash, randomUUID } from 'node:crypto';
import {
  toClaimBody,
  type ClaimInput,
  type TextReport,
} from '../../commands/intent/claim-input.js';
import { EXCERPT_MAX, redactAndCap, STATEMENT_MAX } from '../../commands/intent/redact.js';
import { claimSubject } from '../../commands/intent/task.js';
import type { TaskState } from '../../commands/intent/task-state.js';
import { principalId, type Principal } from '../../commands/principal.js';
import type { ClaimBody, IntentMode, SourceRef } from '../../events/intent/index.js';
import { sha256Hex, type EventLog } from '../../events/index.js';
import { INTENT_SNAPSHOT } from '../../projections/intent/snapshot.js';
import { perApp } from '../per-app.js';
import { privateStore } from './private.js';
import { intentProjects } from './project.js';
import { intentIo } from './io.js';
import { longTerm, signalOf } from './long-term.js';
import { intentReads } from './reads.js';
import { intentWrites, loadTask, taskStreamOf, type Written } from './writes.js';

/** Who calls and in which project; `request_id` deduplicates a task-scoped mutation. */
export type IntentCall = {
  project_id: string;
  principal: Principal;
  request_id?: string | undefined;
};

export type ClaimResult = {
  claim_id: string;
  epistemic_status: ClaimBody['epistemic_status'];
  scope: ClaimBody['scope'];
  candidate: boolean;
  supersedes: string[];
  redactions: number;
  truncated: boolean;
  /** long-term candidates: the tasks it recurred in so far, this one included */
  task_ids?: string[];
  candidate_type?: 'long_term_preference';
};

/** A UUID (version 8, RFC 9562's custom layout) made of the first bits of a SHA-256. */
const uuidOf = (text: string): string => {
  const hex = createHash('sha256').update(text).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/**
 * The task id a retry of the same start lands on: derived from the project, the principal and
 * the request_id, so two principals using one request_id get two tasks, and no id a caller
 * can derive names another's task.
 */
export const stableTaskId = (projectId: string, by: Principal, requestId: string): string =>
  uuidOf(`intent-task/v2\0${projectId}\0${principalId(by)}\0${requestId}`);

/** The id the first release derived from the project and request_id alone. */
export const legacyTaskId = (projectId: string, requestId: string): string =>
  uuidOf(`intent-task\0${projectId}\0${requestId}`);

export const markerHash = (token: string): string => sha256Hex(`intent-private\0${token}`);

const claimResult = (body: ClaimBody, report: TextReport): ClaimResult => ({
  claim_id: body.claim_id,
  epistemic_status: body.epistemic_status,
  scope: body.scope,
  candidate: body.candidate,
  supersedes: body.supersedes,
  ...report,
});

/**
 * The intent surface's services for one app: root → project, the write path (log or private
 * memory), the reads, and what Hooks need. Every call is already scoped to one project.
 */
export const intentService = (
  log: EventLog,
  waitFor: (position: number) => Promise<void>,
  clock: () => string = () => new Date().toISOString(),
) => {
  const store = privateStore();
  const writes = intentWrites(log, store);
  const reads = intentReads(log, waitFor, store);
  const longTermRule = longTerm(reads, writes, clock);

  const claimOp = async (
    call: IntentCall,
    task_id: string,
    operation: string,
    args: Record<string, unknown>,
    input: ClaimInput,
    type: 'AddClaim' | 'ReplaceClaim',
  ): Promise<Written<ClaimResult>> => {
    const now = clock();
    const { body, report } = toClaimBody(input, { claim_id: randomUUID(), now });
    const outcome = await writes.write({
      ...call,
      task_id,
      operation,
      args,
      command: (route) => ({ type, data: { claim: body, now, route } }),
      respond: () => claimResult(body, report),
    });
    if (outcome.kind === 'off' || !body.candidate) return outcome;
    // a long-term candidate is told where it recurred so far (read now, from live tasks)
    const task_ids = await longTermRule.recurrence(call, signalOf(body));
    return {
      ...outcome,
      result: { ...outcome.result, task_ids, candidate_type: 'long_term_preference' },
    };
  };

  /**
   * The task a start without task_id lands on. With a request_id: the one derived from it, or
   * the caller's own task under the first release's derivation (a retry of a start made before
   * the change still lands on it; another's task there is never used).
   */
  const startedId = async (call: IntentCall): Promise<string> => {
    if (call.request_id === undefined) return randomUUID();
    const legacy = legacyTaskId(call.project_id, call.request_id);
    const state = await loadTask(log, await taskStreamOf(log, call.project_id, legacy), store);
    return state.exists && state.owner === principalId(call.principal)
      ? legacy
      : stableTaskId(call.project_id, call.principal, call.request_id);
  };

  /**
   * Starts a task, or associates with the caller's task named by task_id: a named task that
   * does not exist (or is another's) is TASK_NOT_FOUND, so no caller creates a task under an
   * id of its choosing.
   */
  const startTask = async (
    call: IntentCall,
    args: {
      task_id?: string | undefined;
      host_session_id?: string | undefined;
      claims: ClaimInput[];
    },
  ) => {
    const task_id = args.task_id ?? (await startedId(call));
    const now = clock();
    const built = args.claims.map((c) => toClaimBody(c, { claim_id: randomUUID(), now }));
    const host_session_hash =
      args.host_session_id === undefined ? null : markerHash(args.host_session_id);
    const outcome = await writes.write({
      ...call,
      task_id,
      operation: 'intent_start_task',
      persist: true,
      args: { ...args, task_id },
      command: () => ({
        type: 'StartTask',
        data: {
          project_id: call.project_id,
          task_id,
          associate_only: args.task_id !== undefined,
          host_session_hash,
          claims: built.map((b) => b.body),
          now,
        },
      }),
      respond: (_state: TaskState, events) => ({
        created: events[0]?.type === 'intent.task_started',
        claims: built.map((b) => claimResult(b.body, b.report)),
      }),
    });
    if (outcome.kind === 'off') throw new Error('a task start is never refused by mode');
    return { task_id, ...outcome };
  };

  const invalidate = (
    call: IntentCall,
    task_id: string,
    args: { claim_id: string; reason: string; source_ref: SourceRef },
  ) =>
    writes.write({
      ...call,
      task_id,
      operation: 'intent_invalidate',
      args,
      command: (route) => ({
        type: 'InvalidateClaim',
        data: {
          ...args,
          reason: redactAndCap(args.reason, STATEMENT_MAX).text,
          source_ref: {
            ...args.source_ref,
            excerpt:
              args.source_ref.excerpt === null
                ? null
                : redactAndCap(args.source_ref.excerpt, EXCERPT_MAX).text,
          },
          now: clock(),
          route,
        },
      }),
      respond: () => ({ claim_id: args.claim_id, life: 'invalidated' as const }),
    });

  const setMode = async (
    call: IntentCall,
    task_id: string,
    mode: IntentMode,
    hostSession: string | undefined,
  ) => {
    const marker_hash = hostSession === undefined ? null : markerHash(hostSession);
    const stream = await taskStreamOf(log, call.project_id, task_id);
    const outcome = await writes.write({
      ...call,
      task_id,
      operation: 'intent_set_mode',
      persist: true,
      args: { task_id, mode, marker_hash },
      command: () => ({ type: 'SetMode', data: { mode, marker_hash, now: clock() } }),
      respond: (state: TaskState) => ({ task_id, mode: state.mode }),
    });
    // the marker is the named session's, or the task's associated one: read it back
    const state = await loadTask(log, stream, store);
    if (state.mode === 'private' && state.marker_hash !== null)
      store.open(stream, state.marker_hash, state.owner);
    else store.drop(stream);
    return outcome;
  };

  return {
    longTerm: longTermRule,
    projects: intentProjects(log, waitFor),
    io: intentIo(log, reads, writes, store, clock),
    reads,
    writes,
    store,
    clock,
    startTask,
    claimOp,
    invalidate,
    setMode,
    claimSubject,
  };
};

export type IntentService = ReturnType<typeof intentService>;

/** The intent services of one app, made once (surfaces and the hooks CLI call `intentOf(app)`). */
export const intentOf = perApp((app) =>
  intentService(
    app.log,
    (position) => app.waitFor(position, [INTENT_SNAPSHOT, 'projects']),
    () => app.clock().toISOString(),
  ),
);
