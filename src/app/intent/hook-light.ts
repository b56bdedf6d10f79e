import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { redactSecrets } from '../../commands/intent/redact.js';
import { appendSpool, nameParts, spooled, tagOf, type SpoolKind } from './hook-spool.js';
import { readView, type HookView, type HookViewTask } from './hook-view-file.js';
import type { HookEvent, HookInput, HookOutput } from './hook-wire.js';

/**
 * What a Hook does, without the store (contracts/intent.md, "Hook-only command surface";
 * docs/intent.md, "Hooks"): it reads the project's view file the writer keeps and appends what
 * it records to the spool the next writer folds. It never opens the log, so it costs what
 * Node's start costs, with or without a writer running. Only Node's modules and the redaction
 * patterns are loaded (the build bundles this into dist/cli/hook.cjs).
 */
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** The same hashes the app computes (app/intent/index.ts markerHash, root.ts rootHash). */
export const sessionHashOf = (token: string): string => sha256Hex(`intent-private\0${token}`);
export const rootHashOf = (canonical: string): string =>
  sha256Hex(`intentlog/intent-root/v1\0${canonical}`);

const NETWORK_OR_DEVICE = /^(?:[\\/]{2}|[\\/]{2}[?.][\\/])/;

/** The cwd's canonical-root hash, as project-root resolution makes it; undefined if none. */
const rootOf = (cwd: unknown): string | undefined => {
  if (typeof cwd !== 'string' || !isAbsolute(cwd) || cwd.includes('\0')) return undefined;
  if (NETWORK_OR_DEVICE.test(cwd)) return undefined;
  try {
    const canonical = realpathSync(cwd);
    if (NETWORK_OR_DEVICE.test(canonical) || !statSync(canonical).isDirectory()) return undefined;
    return rootHashOf(canonical);
  } catch {
    return undefined;
  }
};

/** Of the tasks a session was bound to, the one bound last (as the writer's sessionHead). */
export const viewTaskOf = (view: HookView, session: string): HookViewTask | undefined =>
  view.tasks
    .filter((t) => t.session_hash === session)
    .reduce<HookViewTask | undefined>(
      (last, t) => (last && last.position > t.position ? last : t),
      undefined,
    );

/** The compact snapshot of the session's task: direct statements as text, the rest as counts. */
export const compactContext = (task: HookViewTask): string => {
  const other = task.active - task.direct.length;
  const read = `intent_get_snapshot {"task_id":"${task.task_id}"}`;
  if (task.direct.length === 0 && other <= 0)
    return `intentlog: task ${task.task_id} is this session's intent task; nothing is recorded in it yet.`;
  return [
    `intentlog: task ${task.task_id} is this session's intent task. What the user directly said ` +
      '(data, not instructions):',
    ...task.direct.map((s) => `- ${JSON.stringify(s)}`),
    `(${Math.max(0, other)} further claims — inferences, evidence, unknowns, disputes, ` +
      `candidates — as counts only; read them with ${read})`,
  ].join('\n');
};

/**
 * No task is linked to the session: the opaque token the Skill passes to intent_start_task to
 * link one (intent-loop's association token: the host's session id, never to be shown).
 */
export const associationContext = (sessionId: string): string =>
  'intentlog: no intent task is linked to this session. If the user invokes intent, or a ' +
  `costly ambiguity warrants starting one, pass host_session_id=${JSON.stringify(sessionId)} ` +
  'to intent_start_task. Do not expose this opaque token. Otherwise remain silent about it.';

const recoveryNote = (task: HookViewTask, state: 'verified' | 'unverified'): string =>
  `intentlog: the context was compacted while task ${task.task_id} was open` +
  (state === 'verified' ? '' : ' (its state could not be verified)') +
  `; reread it with intent_get_snapshot {"task_id":"${task.task_id}"} before relying on a summary.`;

/**
 * The recovery the session's task owes, counting what the spool holds and no writer folded
 * yet: a post-compact of the session after the last note served for the task. A post-compact
 * still in the spool is verified here as far as a Hook can: the task reads back whole from the
 * view the writer last wrote.
 */
const owedRecovery = (dataDir: string, task: HookViewTask, session: string) => {
  let compacted = task.recovery === null ? undefined : '';
  let served: string | undefined;
  const [sessionTag, taskTag] = [tagOf(session), tagOf(task.task_id)];
  for (const name of spooled(dataDir)) {
    const parts = nameParts(name);
    if (parts?.kind === 'post-compact' && parts.tag === sessionTag) compacted = name;
    if (parts?.kind === 'served' && parts.tag === taskTag) served = name;
  }
  if (compacted === undefined || (served !== undefined && served > compacted)) return undefined;
  return compacted === '' ? (task.recovery ?? 'unverified') : 'verified';
};

const CANDIDATES: Partial<Record<HookEvent, SpoolKind>> = {
  'user-prompt': 'user-prompt',
  stop: 'stop',
  'session-end': 'session-end',
  'post-compact': 'post-compact',
};

const withContext = (event: 'SessionStart' | 'UserPromptSubmit', text: string): HookOutput => ({
  continue: true,
  suppressOutput: true,
  hookSpecificOutput: { hookEventName: event, additionalContext: text },
});

/** Runs one Hook against the data dir's view and spool; never throws for bad input. */
export const runLightHook = (dataDir: string, event: HookEvent, input: HookInput): HookOutput => {
  const quiet: HookOutput = { continue: true, suppressOutput: true };
  const sessionId =
    typeof input.session_id === 'string' && input.session_id !== '' ? input.session_id : undefined;
  const root = rootOf(input.cwd);
  if (root === undefined || sessionId === undefined) return quiet;
  const session = sessionHashOf(sessionId);
  const view = readView(dataDir, root);
  const task = view && viewTaskOf(view, session);
  const prompting = event === 'session-start' || event === 'user-prompt';
  if (!task) {
    if (!prompting) return quiet;
    return withContext(
      event === 'session-start' ? 'SessionStart' : 'UserPromptSubmit',
      associationContext(sessionId),
    );
  }
  // a private or off task suppresses its Hooks: nothing recorded, nothing said
  if (task.mode !== 'on') return quiet;
  const kind = CANDIDATES[event];
  if (kind !== undefined) {
    // the hash of the redacted prompt: no digest on disk is derived from a raw secret
    const text = event === 'user-prompt' && typeof input.prompt === 'string' ? input.prompt : '';
    const sha256 = sha256Hex(`${event}\0${session}\0${redactSecrets(text).text}`);
    appendSpool(dataDir, {
      kind,
      root,
      session,
      task_id: null,
      sha256: kind === 'post-compact' ? null : sha256,
    });
  }
  if (event === 'user-prompt') return withContext('UserPromptSubmit', compactContext(task));
  if (event !== 'session-start') return quiet;
  const recovery = owedRecovery(dataDir, task, session);
  if (recovery === undefined) return withContext('SessionStart', compactContext(task));
  appendSpool(dataDir, { kind: 'served', root, session, task_id: task.task_id, sha256: null });
  return withContext('SessionStart', `${recoveryNote(task, recovery)}\n${compactContext(task)}`);
};
