import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  ClaimRole,
  ClaimScope,
  EpistemicStatus,
  ExplicitBasis,
  Facet,
  FeedbackClass,
  IntentMode,
  SourceKind,
  type ClaimBody,
} from '../../events/intent/index.js';
import { checkShape } from './claim-rules.js';
import { checkSource, checkStatement } from './input-checks.js';
import { EXCERPT_MAX, redactAndCap, STATEMENT_MAX } from './redact.js';
import { intentError } from './errors.js';

/**
 * The portable, versioned task graph `intent_export` returns and `intent_import` reads. Its
 * JSON Schema is published as docs/intent-graph.schema.json (generated from this, and checked
 * to match by a test).
 */
export const GRAPH_FORMAT = 'intentlog.intent-graph';
export const GRAPH_VERSION = 1;
export const GRAPH_CLAIMS_MAX = 5000;

const Utc = z.iso.datetime({ offset: false }).describe('UTC ISO-8601 time, ending in Z');

/** The tools' own limits hold for an import too (intent_mark_dispute takes at most 50). */
export const RELATIONS_MAX = 50;
const Relations = z.array(z.string()).max(RELATIONS_MAX);

export const GraphClaim = z.strictObject({
  claim_id: z.string().regex(/^[A-Za-z0-9_.:@-]{1,128}$/, 'an opaque id of at most 128 characters'),
  statement: z.string().min(1).max(500),
  role: ClaimRole,
  epistemic_status: EpistemicStatus,
  source_ref: z.strictObject({
    kind: SourceKind,
    event_id: z.string().max(300).nullable(),
    sha256: z.string().max(64).nullable(),
    excerpt: z.string().max(160).nullable(),
  }),
  basis: ExplicitBasis.nullable(),
  scope: ClaimScope,
  confidence: z.number().min(0).max(1).nullable(),
  facets: z.array(Facet).max(9),
  affects_decision: z.string().max(500).nullable(),
  disputes: Relations,
  supersedes: Relations,
  candidate: z.boolean(),
  valid_from: Utc,
  life: z.enum(['active', 'superseded', 'invalidated']),
  signal_key: z.string().min(1).max(200).optional(),
  feedback_class: FeedbackClass.optional(),
});
export type GraphClaim = z.infer<typeof GraphClaim>;

export const IntentGraph = z.strictObject({
  format: z.literal(GRAPH_FORMAT),
  format_version: z.literal(GRAPH_VERSION),
  exported_at: Utc,
  task: z.strictObject({ task_id: z.string(), mode: IntentMode }),
  /** true when the task itself held imported (external, incomplete) history */
  incomplete_history: z.boolean(),
  claims: z.array(GraphClaim).max(GRAPH_CLAIMS_MAX),
  /**
   * sha256 of the graph without this field, as canonical JSON (keys sorted at every level):
   * an import recomputes it and refuses a mismatch. It detects a changed file; it does not
   * say who made it. Absent on exports made before it existed.
   */
  integrity: z
    .strictObject({ algorithm: z.literal('sha256'), digest: z.string().regex(/^[0-9a-f]{64}$/) })
    .optional(),
});
export type IntentGraph = z.infer<typeof IntentGraph>;

/** JSON with every object's keys sorted: the same value always gives the same text. */
const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

/** The graph's integrity digest: over everything but the digest itself. */
export const graphDigest = (graph: Omit<IntentGraph, 'integrity'>): string => {
  const { integrity: _i, ...content } = graph as IntentGraph;
  return createHash('sha256').update(canonicalJson(content), 'utf8').digest('hex');
};

/** A graph as exported: its integrity digest added. */
export const sealGraph = (graph: Omit<IntentGraph, 'integrity'>): IntentGraph => ({
  ...graph,
  integrity: { algorithm: 'sha256', digest: graphDigest(graph) },
});

/** The published JSON Schema of the graph (docs/intent-graph.schema.json; a test keeps them equal). */
export const graphJsonSchema = () => ({
  $id: 'https://intentlog.dev/schemas/intent-graph-v1.json',
  title: 'intentlog intent task graph, format_version 1',
  ...z.toJSONSchema(IntentGraph),
});

const invalid = (message: string, details: Record<string, unknown> = {}) =>
  intentError('IMPORT_INVALID', message, details);

/** Claims in an order where every claim comes after the claims it refers to; refuses a cycle. */
const topological = (claims: readonly GraphClaim[]): GraphClaim[] => {
  const byId = new Map(claims.map((c) => [c.claim_id, c]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const order: GraphClaim[] = [];
  const visit = (c: GraphClaim) => {
    if (done.has(c.claim_id)) return;
    if (visiting.has(c.claim_id)) throw invalid('supersession or disputes form a cycle');
    visiting.add(c.claim_id);
    for (const id of [...c.supersedes, ...c.disputes]) visit(byId.get(id)!);
    visiting.delete(c.claim_id);
    done.add(c.claim_id);
    order.push(c);
  };
  for (const c of claims) visit(c);
  return order;
};

const checkGraph = (graph: IntentGraph): void => {
  const byId = new Map(graph.claims.map((c) => [c.claim_id, c]));
  if (byId.size !== graph.claims.length) throw invalid('claim ids must be unique');
  for (const c of graph.claims)
    for (const id of [...c.supersedes, ...c.disputes]) {
      const target = byId.get(id);
      if (!target)
        throw invalid('a reference points outside the graph', { claim_id: c.claim_id, ref: id });
      if (c.supersedes.includes(id) && Date.parse(target.valid_from) > Date.parse(c.valid_from))
        throw invalid('a claim supersedes a later claim', { claim_id: c.claim_id, ref: id });
      if (c.supersedes.includes(id) && target.life !== 'superseded')
        throw invalid('a superseded claim must be marked superseded', { ref: id });
    }
};

/**
 * Validates a graph and maps it to claims for one import: its integrity digest (when it has
 * one), the tools' limits, fresh ids, provenance `explicit_import` (the original id kept in
 * `source_ref.event_id`), references rewritten. Invalidated claims are carried as history:
 * `invalidated` names them, to be invalidated again on arrival.
 */
export const importClaims = (
  raw: unknown,
  facts: { import_id: string; newId: () => string },
): { claims: ClaimBody[]; invalidated: string[]; integrity_checked: boolean } => {
  const parsed = IntentGraph.safeParse(raw);
  if (!parsed.success)
    throw invalid('not a valid intent graph', {
      issues: parsed.error.issues.slice(0, 20).map((i) => `${i.path.join('.')}: ${i.message}`),
    });
  const { integrity } = parsed.data;
  if (integrity && integrity.digest !== graphDigest(parsed.data))
    throw invalid('the graph does not match its integrity digest: it was changed after export');
  checkGraph(parsed.data);
  // invalidated claims come along as history: imported, then invalidated again, never current
  const ordered = topological(parsed.data.claims);
  const fresh = new Map(ordered.map((c) => [c.claim_id, facts.newId()]));
  const renamed = (ids: string[]) => ids.map((id) => fresh.get(id)!);
  const invalidated = ordered
    .filter((c) => c.life === 'invalidated')
    .map((c) => fresh.get(c.claim_id)!);
  const claims = ordered.map(({ life: _life, ...c }): ClaimBody => {
    // a graph is outside text: redacted as a tool's input is (within the caps it already meets)
    const clean = (text: string, max: number) => redactAndCap(text, max).text;
    const { excerpt } = c.source_ref;
    const body: ClaimBody = {
      ...c,
      claim_id: fresh.get(c.claim_id)!,
      statement: clean(c.statement, STATEMENT_MAX),
      affects_decision:
        c.affects_decision === null ? null : clean(c.affects_decision, STATEMENT_MAX),
      source_ref: {
        ...c.source_ref,
        kind: 'explicit_import',
        event_id: `import:${c.claim_id}`,
        excerpt: excerpt === null ? null : clean(excerpt, EXCERPT_MAX),
      },
      disputes: renamed(c.disputes),
      supersedes: renamed(c.supersedes),
      import_id: facts.import_id,
    };
    try {
      checkStatement(c.statement);
      checkSource(body.source_ref);
      checkShape(body);
    } catch (error) {
      throw invalid('an illegal claim shape', {
        claim_id: c.claim_id,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
    return body;
  });
  return { claims, invalidated, integrity_checked: integrity !== undefined };
};
