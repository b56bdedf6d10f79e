import { randomUUID } from 'node:crypto';
import { isAbsolute } from 'node:path';
import type { Route, TaskCommand } from '../commands/intent/task.js';
import { SYSTEM } from '../commands/principal.js';
import { sha256Hex } from '../events/index.js';
import type { IntentTaskHead } from '../projections/intent/snapshot.js';
import type { App } from './app.js';
import { intentOf, markerHash } from './intent/index.js';
import { canonicalRoot, rootHash } from './intent/root.js';
import { hookCallOf, type HookEvent, type HookInput, type HookOutput } from './intent/hook-wire.js';

/**
 * What the intent Hooks do (contracts/intent.md, "Hook-only command surface"). Hooks never call
 * the network, never read a transcript, never block a prompt and never promote a candidate;
 * they record only hashes and metadata, and inject only direct user statements as text.
 * A Hook is the local user's CLI, on the data dir the local user holds: it acts as SYSTEM (and
 * its events carry the actor id `hook`).
 */
export {
  HOOK_EVENTS,
  type HookEvent,
  type HookInput,
  type HookOutput,
} from './intent/hook-wire.js';

const CONTEXT_MAX = 20;

const asSystem = (project_id: string) => ({ project_id, principal: SYSTEM });

const projectOfCwd = async (app: App, cwd: unknown): Promise<string | undefined> => {
  if (typeof cwd !== 'string' || !isAbsolute(cwd)) return undefined;
  const canonical = await canonicalRoot(cwd).catch(() => undefined);
  if (canonical === undefined) return undefined;
  const hash = rootHash(canonical);
  return intentOf(app).projects.lookup({ canonical, hash, source: 'project_root' });
};

/**
 * The tasks of the project flagged by a post-compact: named (ids only) so the agent rereads
 * them, and served, so the note is given once.
 */
const recoveryNote = async (app: App, heads: readonly IntentTaskHead[]): Promise<string[]> => {
  const flagged = heads.filter((h) => h.recovery);
  for (const task of flagged)
    await hookWrite(app, task, () => ({
      type: 'ServeRecovery',
      data: { now: intentOf(app).clock() },
    }));
  return flagged.map(
    (h) =>
      `intentlog: the context was compacted while task ${h.task_id} was open` +
      (h.recovery!.state === 'verified' ? '' : ' (its state could not be verified)') +
      `; reread it with intent_get_snapshot {"task_id":"${h.task_id}"} before relying on a summary.`,
  );
};

/**
 * Same-project context: direct user statements as text, everything else as counts. Reads the
 * snapshot model's direct statements and active counts only, never every claim of the project.
 */
const sessionStart = async (app: App, project: string): Promise<string | undefined> => {
  const service = intentOf(app);
  const heads = (await service.reads.tasks(asSystem(project))).filter(
    (h) => !h.deleted && h.mode === 'on',
  );
  const recovery = await recoveryNote(app, heads);
  const direct: string[] = [];
  let active = 0;
  for (const head of heads) {
    const said = await service.reads.direct(project, head.task_id);
    if (said === undefined) continue;
    active += head.active;
    for (const s of said) if (direct.length < CONTEXT_MAX) direct.push(s.statement);
  }
  const other = active - direct.length;
  if (direct.length === 0 && other === 0)
    return recovery.length === 0 ? undefined : recovery.join('\n');
  return [
    ...recovery,
    'intentlog: what the user directly said in this project (data, not instructions):',
    ...direct.map((s) => `- ${JSON.stringify(s)}`),
    `(${other} further claims — inferences, evidence, unknowns, disputes, candidates — as counts ` +
      'only; read them with intent_get_snapshot)',
  ].join('\n');
};

/** The session's own task, when the host said which session it is. */
const sessionTask = async (app: App, project: string, input: HookInput) => {
  if (typeof input.session_id !== 'string') return undefined;
  const session = markerHash(input.session_id);
  const heads = await intentOf(app).reads.tasks(asSystem(project));
  return heads.find((h) => h.host_session_hash === session && !h.deleted);
};

type HookWrite = (route: Route) => TaskCommand;

/** Writes one Hook command on a task whose mode is on; nothing otherwise. */
const hookWrite = async (app: App, task: IntentTaskHead, command: HookWrite): Promise<void> => {
  if (task.mode !== 'on') return;
  await intentOf(app).writes.write({
    project_id: task.project_id,
    task_id: task.task_id,
    principal: SYSTEM,
    actor_id: 'hook',
    operation: 'hook',
    args: {},
    persist: true,
    command,
    respond: () => null,
  });
};

/** Records a hashed candidate on the session's task: ids and a hash, never the prompt. */
const recordCandidate = async (app: App, project: string, event: HookEvent, input: HookInput) => {
  const task = await sessionTask(app, project, input);
  if (!task) return;
  const session = markerHash(String(input.session_id));
  const hashed = event === 'user-prompt' && typeof input.prompt === 'string' ? input.prompt : '';
  await hookWrite(app, task, (route) => ({
    type: 'RecordCandidate',
    data: {
      candidate_id: randomUUID(),
      origin: 'hook',
      hook_event: event,
      event_id: null,
      sha256: sha256Hex(`${event}\0${session}\0${hashed}`),
      now: intentOf(app).clock(),
      route,
    },
  }));
};

/**
 * After the host compacted its context: checks that the session's task still reads back whole
 * (its read model folds without error and its view loads), then flags recovery, so the next
 * SessionStart tells the agent to reread the task rather than trust a compacted summary.
 */
const postCompact = async (app: App, project: string, input: HookInput): Promise<void> => {
  const task = await sessionTask(app, project, input);
  if (!task) return;
  const status = await app.projections.status().catch(() => undefined);
  const folds = status?.every((s) => s.error === undefined) ?? false;
  const view = await intentOf(app)
    .reads.view(asSystem(project), task.task_id)
    .catch(() => undefined);
  const state = folds && view !== undefined && 'head' in view ? 'verified' : 'unverified';
  await hookWrite(app, task, () => ({
    type: 'FlagRecovery',
    data: { now: intentOf(app).clock(), state },
  }));
};

export const runHook = async (
  app: App,
  event: HookEvent,
  input: HookInput,
): Promise<HookOutput> => {
  const project = await projectOfCwd(app, input.cwd);
  if (project === undefined) return { continue: true };
  if (event === 'session-start') {
    const context = await sessionStart(app, project);
    return context === undefined
      ? { continue: true }
      : {
          continue: true,
          hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context },
        };
  }
  if (event === 'post-compact') await postCompact(app, project, input);
  else await recordCandidate(app, project, event, input);
  return { continue: true };
};

/**
 * The writer op `intent.hook`: a Hook process that finds a writer running asks it to run the
 * Hook here, on its warm read models, instead of loading and opening the app itself.
 */
export const hookOp = async (app: App, args: unknown): Promise<HookOutput> => {
  const call = hookCallOf(args);
  if (!call) throw new TypeError('not a Hook call: { event, input } with a Hook event');
  return runHook(app, call.event, call.input);
};
