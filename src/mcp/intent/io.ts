import { z } from 'zod';
import { toGraph } from '../../app/intent/io.js';
import { signalOf } from '../../app/intent/long-term.js';
import { IntentGraph } from '../../commands/intent/graph.js';
import { intentError } from '../../commands/intent/errors.js';
import { compactText } from '../../projections/intent/compact.js';
import { snapshotOf } from '../../projections/intent/snapshot-view.js';
import type { AnyTool } from '../tool.js';
import { answer } from './claims.js';
import { checkTarget, oneOf } from './loop-forms.js';
import { intentTool, type Scope } from './define.js';
import * as S from './schemas.js';
import { unadvertised } from '../unadvertised.js';

/** Candidates, export, import and delete. */

const viewOf = (scope: Scope, task_id: string) => scope.service.reads.view(scope.call, task_id);

/** The exact token `intent_delete` asks for: the user types it, the model cannot guess it away. */
export const confirmationToken = (task_id: string, claim_id: string | undefined) =>
  claim_id === undefined ? `DELETE TASK ${task_id}` : `DELETE CLAIM ${claim_id}`;

const Candidate = z.object({
  candidate_id: z.string(),
  origin: z.enum(['hook', 'result', 'history', 'long_term']),
  hook_event: z.string().nullable(),
  recorded_at: z.string(),
  statement: z
    .string()
    .nullable()
    .describe('long-term candidates only; Hook candidates hold no text'),
  candidate_type: z.literal('long_term_preference').optional(),
  task_ids: z
    .array(z.string())
    .optional()
    .describe('long-term candidates: the distinct tasks it recurred in so far'),
});

const summaryText = (
  scope: Scope,
  view: Exclude<Awaited<ReturnType<typeof viewOf>>, { mode: 'off' }>,
) => compactText(snapshotOf(view.head, view.index, scope.service.clock()));

export const ioTools: AnyTool[] = [
  intentTool({
    name: 'intent_list_candidates',
    title: 'List candidates',
    description:
      'Lists a task’s unconfirmed candidates: Hook ones (metadata only) and long-term claims ' +
      'waiting for three tasks and a confirmation. Listing never promotes.',
    args: { task_id: S.TaskId },
    output: z.union([z.object({ candidates: z.array(Candidate) }), S.OffStatus]),
    kind: 'query',
    async run(args, scope) {
      const view = await viewOf(scope, args.task_id);
      if (!('head' in view)) return { result: view, task_id: args.task_id, summary: 'task is off' };
      const longTerm = [];
      for (const c of view.index.waiting())
        longTerm.push({
          candidate_id: c.body.claim_id,
          origin: 'long_term' as const,
          candidate_type: 'long_term_preference' as const,
          hook_event: null,
          recorded_at: c.body.valid_from,
          statement: c.body.statement,
          // the distinct tasks this one preference recurred in so far (three, then confirmable)
          task_ids: await scope.service.longTerm.recurrence(scope.call, signalOf(c.body)),
        });
      const hooks = view.candidates.map((c) => ({ ...c, statement: null }));
      const candidates = [...hooks, ...longTerm];
      return {
        result: { candidates },
        task_id: args.task_id,
        summary: `${candidates.length} candidates`,
      };
    },
  }),
  intentTool({
    name: 'intent_export',
    title: 'Export a task',
    description:
      'Returns a task as a short summary (the default) or, with detail portable, its versioned ' +
      'graph, ready to pass to intent_import as graph. Writes no file.',
    args: {
      task_id: S.TaskId,
      detail: z.enum(['portable', 'summary']).optional().describe('default summary'),
      format: unadvertised(z.enum(['summary', 'graph']).optional(), 'detail'),
    },
    output: z.union([
      z.object({
        format: z.literal('summary'),
        summary: z.string(),
        active_claim_count: z.number().int(),
      }),
      z.object({ format: z.literal('graph'), graph: IntentGraph }),
      IntentGraph,
      S.OffStatus,
    ]),
    kind: 'query',
    async run(args, scope) {
      const detail = oneOf<string>(['format', args.format], ['detail', args.detail]);
      const view = await viewOf(scope, args.task_id);
      if (!('head' in view)) return { result: view, task_id: args.task_id, summary: 'task is off' };
      const graph = () => toGraph(view, scope.service.clock());
      const result =
        detail === 'portable'
          ? graph()
          : detail === 'graph'
            ? { format: 'graph' as const, graph: graph() }
            : {
                format: 'summary' as const,
                summary: summaryText(scope, view),
                // the active claims, waiting candidates included
                active_claim_count: view.index.active + view.index.candidates,
              };
      return {
        result,
        task_id: args.task_id,
        summary: `task ${args.task_id} exported (${detail ?? 'summary'})`,
      };
    },
  }),
  intentTool({
    name: 'intent_import',
    title: 'Import a task graph',
    description:
      'Validates a portable task graph and imports it into a task as incomplete external ' +
      'history (fresh ids, relationships kept); never merges with the task’s own claims.',
    args: { task_id: S.TaskId, request_id: S.RequestId, graph: z.record(z.string(), z.unknown()) },
    output: z.union([
      z.object({
        import_id: z.string(),
        imported_claims: z.number().int(),
        id_map_size: z.number().int(),
        invalidated_history: z
          .number()
          .int()
          .describe('claims the exported task had invalidated: imported as history, not current'),
        integrity_checked: z.boolean().describe('the graph carried a digest, and it matched'),
        incomplete_external_history: z.literal(true),
        merged_into_existing: z.literal(0),
        task_claims_after: z.number().int(),
      }),
      S.OffStatus,
    ]),
    kind: 'mutation',
    idempotent: true,
    async run(args, scope) {
      const outcome = await scope.service.io.importGraph(scope.call, args.task_id, args.graph);
      return answer(outcome, args.task_id, (r) => `${r.imported_claims} claims imported`);
    },
  }),
  intentTool({
    name: 'intent_delete',
    title: 'Delete a claim or a task',
    description:
      'Physically deletes one claim (claim_id) or the whole task, given the exact token the ' +
      'user typed: "DELETE CLAIM <claim_id>" or "DELETE TASK <task_id>". The answer verifies ' +
      'the bytes on disk.',
    args: {
      task_id: S.TaskId,
      claim_id: S.ClaimId.optional(),
      target: z.enum(['task', 'claim']).optional().describe('must agree with claim_id'),
      confirmation: z.string().max(300),
      request_id: S.RequestId,
    },
    output: z.union([
      z.object({
        deleted_claims: z.array(z.string()),
        verification: z.object({
          view_clear: z.boolean(),
          export_clear: z.boolean(),
          bytes_clear: z.boolean().nullable().describe('null: the store is not a local directory'),
          files_holding: z.array(z.string()),
        }),
      }),
      S.OffStatus,
    ]),
    kind: 'destructive',
    async run(args, scope) {
      checkTarget(args.target, args.claim_id);
      const expected = confirmationToken(args.task_id, args.claim_id);
      if (args.confirmation !== expected)
        throw intentError('CONFIRMATION_MISMATCH', `type exactly: ${expected}`, { expected });
      // only the embedded store keeps its bytes in the data dir; PostgreSQL's are the server's
      const local = scope.app.storeKind === 'level';
      const outcome = await scope.service.io.remove(
        scope.call,
        args.task_id,
        args.claim_id,
        local ? scope.app.dataDir : undefined,
      );
      if (outcome.kind === 'off') return answer(outcome, args.task_id, () => '');
      const result = { ...outcome.result, verification: outcome.verification! };
      return answer(
        { ...outcome, result },
        args.task_id,
        (r) => `${r.deleted_claims.length} claims deleted`,
      );
    },
  }),
];
