import { z } from 'zod';
import { intentError, taskNotFound } from '../../commands/intent/errors.js';
import { intentRef } from '../../events/intent/index.js';
import { foldSpoolNow } from '../../app/intent/hook-keeper.js';
import { quarantined } from '../../app/intent/hook-quarantine.js';
import { INTENT_SNAPSHOT } from '../../projections/intent/snapshot.js';
import { packageVersion } from '../server.js';
import type { AnyTool } from '../tool.js';
import { compactText } from '../../projections/intent/compact.js';
import { intentTool, type Scope } from './define.js';
import * as L from './loop-forms.js';
import * as S from './schemas.js';
import { startTask } from './start.js';
import { unadvertised } from '../unadvertised.js';

/** The task-level tools: start, snapshot, candidates, mode, and the server's status. */

const SnapshotOrOff = z.union([S.Snapshot, S.OffStatus]);

const storage = (scope: Scope) => ({
  data_dir: scope.app.dataDir,
  root_source: scope.root.source,
});

const snapshotOf = (scope: Scope, task_id: string, maxChars?: number) =>
  scope.service.reads.snapshot(scope.call, task_id, scope.service.clock(), maxChars);

/** intent-loop's `compact_text`, beside the snapshot it renders (none for an off task). */
const compact = (snapshot: Awaited<ReturnType<typeof snapshotOf>>) =>
  'current' in snapshot ? { compact_text: compactText(snapshot) } : {};

export const taskTools: AnyTool[] = [
  intentTool({
    name: 'intent_start_task',
    title: 'Start or associate a task',
    description:
      'Starts a task in the current root’s project, with up to 12 things the user said ' +
      '(initial_explicit), or associates with your task task_id. Returns the task UUID and its ' +
      'snapshot. mode private needs host_session_id; off takes no label or claims.',
    args: {
      task_id: S.TaskId.optional(),
      host_session_id: z.string().min(1).max(500).optional(),
      request_id: S.RequestId,
      initial_explicit: L.InitialExplicit,
      claims: unadvertised(z.array(S.ClaimSpec).max(12).optional(), 'initial_explicit'),
      mode: S.IntentMode.optional().describe('default on'),
      label: L.Label,
    },
    output: z.object({
      task_id: z.string(),
      created: z.boolean(),
      label: z.string().nullable().describe('intent-loop: the label, redacted; not stored'),
      claims: z.array(S.ClaimResult),
      snapshot: SnapshotOrOff,
      compact_text: z.string().optional(),
    }),
    kind: 'mutation',
    starts: true,
    async run(args, scope) {
      const started = await startTask(args, scope);
      const snapshot = await snapshotOf(scope, started.task_id);
      return {
        result: { ...started.result, snapshot, ...compact(snapshot) },
        task_id: started.task_id,
        summary: `task ${started.task_id} ${started.result.created ? 'started' : 'associated'}`,
        replayed: started.replayed,
        position: started.position,
      };
    },
  }),
  intentTool({
    name: 'intent_get_snapshot',
    title: 'Get the task snapshot',
    description:
      'Reads a task’s capped snapshot: current claims (user-explicit first), open unknowns, ' +
      'disputes with both sides, stale warnings, storage. Omitted items are counted.',
    args: {
      task_id: S.TaskId,
      max_characters: z
        .number()
        .int()
        .min(500)
        .max(8000)
        .optional()
        .describe('a tighter budget for the shown claims'),
    },
    output: z.object({
      snapshot: SnapshotOrOff,
      storage: S.Storage,
      compact_text: z.string().optional().describe('the snapshot as a few lines of text'),
      active_claims: z
        .array(S.ClaimLine)
        .optional()
        .describe('intent-loop: the shown current, unknown and disputed claims in one list'),
    }),
    kind: 'query',
    async run(args, scope) {
      const snapshot = await snapshotOf(scope, args.task_id, args.max_characters);
      const summary =
        'current' in snapshot
          ? `${snapshot.active_claims} active claims, ${snapshot.unresolved_disputes} disputes`
          : `task ${args.task_id} is off`;
      const lines =
        'current' in snapshot
          ? {
              active_claims: [...snapshot.current, ...snapshot.unknowns, ...snapshot.disputes].map(
                ({ disputed_claims: _d, ...line }: { disputed_claims?: unknown } & S.ClaimLineOf) =>
                  line,
              ),
            }
          : {};
      return {
        result: { snapshot, storage: storage(scope), ...compact(snapshot), ...lines },
        task_id: args.task_id,
        summary,
      };
    },
  }),
  intentTool({
    name: 'intent_set_mode',
    title: 'Set the task mode',
    description:
      'Sets a task on, private or off. Private (needs host_session_id) keeps content in this ' +
      'server process only; after a restart the task fails closed until set again. Off records ' +
      'and reads nothing.',
    args: {
      task_id: S.TaskId,
      mode: S.IntentMode,
      host_session_id: z.string().min(1).max(500).optional(),
      request_id: S.RequestId,
    },
    output: z.object({ task_id: z.string(), mode: S.IntentMode }),
    kind: 'mutation',
    idempotent: true,
    async run(args, scope) {
      const outcome = await scope.service.setMode(
        scope.call,
        args.task_id,
        args.mode,
        args.host_session_id,
      );
      if (outcome.kind === 'off') throw new Error('setting a mode is never refused by mode');
      const { result, replayed, position } = outcome;
      return {
        result,
        task_id: args.task_id,
        summary: `task ${result.task_id} is ${result.mode}`,
        replayed,
        position,
      };
    },
  }),
];

export { storage, snapshotOf, SnapshotOrOff };
export const statusTool = intentTool({
  name: 'intent_status',
  title: 'Intent status',
  description:
    'Reports versions, storage, corruption status, and over the tasks you may reach the Hook ' +
    'candidate, task and private-control counts (given task_id, its mode too). No claim ' +
    'content; creates no storage.',
  args: { task_id: S.TaskId.optional() },
  output: z.object({
    server_version: z.string(),
    schema_version: z.number().int(),
    project_known: z.boolean(),
    storage: S.Storage,
    corruption_status: z.enum(['ok', 'projection_lagging', 'fold_error', 'corrupt']),
    corruption: z
      .object({ problems: z.array(z.string()), repair: z.string() })
      .optional()
      .describe(
        'a corrupt store: what failed its checks, and the command that copies out the rest',
      ),
    hook_candidate_count: z.number().int(),
    tasks: z.object({ on: z.number(), private: z.number(), off: z.number(), deleted: z.number() }),
    private_control: z.object({ tasks_in_memory: z.number(), claims_in_memory: z.number() }),
    hook_spool: z
      .object({
        quarantined: z.number().int(),
        recent: z.array(z.object({ record: z.string(), reason: z.string(), at: z.string() })),
      })
      .optional()
      .describe('Hook spool entries the writer set aside unfolded (and why), the newest last'),
    task: z
      .object({ task_id: z.string(), mode: S.IntentMode, candidate_count: z.number().int() })
      .optional(),
  }),
  kind: 'status',
  whenCorrupt: (corruption, root) => ({
    result: {
      server_version: packageVersion(),
      schema_version: 1,
      project_known: false,
      storage: { data_dir: corruption.data_dir, root_source: root.source },
      corruption_status: 'corrupt' as const,
      corruption: { problems: corruption.problems, repair: corruption.repair },
      hook_candidate_count: 0,
      tasks: { on: 0, private: 0, off: 0, deleted: 0 },
      private_control: { tasks_in_memory: 0, claims_in_memory: 0 },
    },
    task_id: null,
    summary: `the store in ${corruption.data_dir} is corrupt; nothing was read`,
  }),
  async run(args, scope) {
    const p = scope.call.project_id;
    // a Hook that returned has spooled its record: fold it first, so it is counted
    if (p !== '') {
      await foldSpoolNow(scope.app);
      await scope.app.waitFor(await scope.app.log.head(), [INTENT_SNAPSHOT]);
    }
    const heads = p === '' ? [] : await scope.service.reads.tasks(scope.call);
    const ref = args.task_id === undefined ? undefined : intentRef(args.task_id);
    const named = heads.find((h) => h.task_id === args.task_id || h.task_ref === ref);
    if (args.task_id !== undefined && !named) throw taskNotFound();
    if (named?.deleted)
      throw intentError('TASK_DELETED', 'the task was deleted', { task_id: args.task_id });
    const count = (mode: string) => heads.filter((h) => !h.deleted && h.mode === mode).length;
    const inMemory = scope.service.store.counts(scope.call.principal);
    const status = await scope.app.projections.status();
    const head = await scope.app.log.head();
    const corruption = status.some((s) => s.error !== undefined)
      ? ('fold_error' as const)
      : status.every((s) => s.position >= head)
        ? ('ok' as const)
        : ('projection_lagging' as const);
    return {
      result: {
        server_version: packageVersion(),
        schema_version: 1,
        project_known: p !== '',
        storage: storage(scope),
        corruption_status: corruption,
        hook_candidate_count: heads.reduce((n, h) => n + h.candidate_count, 0),
        tasks: {
          on: count('on'),
          private: count('private'),
          off: count('off'),
          deleted: heads.filter((h) => h.deleted).length,
        },
        private_control: { tasks_in_memory: inMemory.tasks, claims_in_memory: inMemory.claims },
        ...(scope.app.storeKind === 'memory' ? {} : { hook_spool: quarantined(scope.app.dataDir) }),
        ...(named
          ? {
              task: {
                task_id: named.task_id,
                mode: named.mode,
                candidate_count: named.candidate_count,
              },
            }
          : {}),
      },
      task_id: named?.task_id ?? null,
      summary: p === '' ? 'no intent project for this root yet' : `${heads.length} tasks`,
    };
  },
});
