import { z } from 'zod';
import {
  ClaimRole,
  ClaimScope,
  EpistemicStatus,
  ExplicitBasis,
  Facet,
  IntentMode,
  SourceKind,
  type ClaimBody,
} from '../../events/intent/index.js';
import { checkShape } from './claim-rules.js';
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

export const GraphClaim = z.strictObject({
  claim_id: z.string().min(1).max(128),
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
  facets: z.array(Facet),
  affects_decision: z.string().max(500).nullable(),
  disputes: z.array(z.string()),
  supersedes: z.array(z.string()),
  candidate: z.boolean(),
  valid_from: Utc,
  life: z.enum(['active', 'superseded', 'invalidated']),
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
});
export type IntentGraph = z.infer<typeof IntentGraph>;

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
 * Validates a graph and maps it to claims for one import: fresh ids, provenance
 * `explicit_import` (the original id kept in `source_ref.event_id`), references rewritten.
 * Invalidated claims are not carried over as current; they are counted.
 */
export const importClaims = (
  raw: unknown,
  facts: { import_id: string; newId: () => string },
): { claims: ClaimBody[]; skipped_invalidated: number } => {
  const parsed = IntentGraph.safeParse(raw);
  if (!parsed.success)
    throw invalid('not a valid intent graph', {
      issues: parsed.error.issues.slice(0, 20).map((i) => `${i.path.join('.')}: ${i.message}`),
    });
  checkGraph(parsed.data);
  const ordered = topological(parsed.data.claims).filter((c) => c.life !== 'invalidated');
  const fresh = new Map(ordered.map((c) => [c.claim_id, facts.newId()]));
  const kept = (ids: string[]) => ids.filter((id) => fresh.has(id)).map((id) => fresh.get(id)!);
  const claims = ordered.map(({ life: _life, ...c }): ClaimBody => {
    const body: ClaimBody = {
      ...c,
      claim_id: fresh.get(c.claim_id)!,
      source_ref: { ...c.source_ref, kind: 'explicit_import', event_id: `import:${c.claim_id}` },
      // a dispute that lost a side to an invalidation stands free rather than half-referenced
      disputes: kept(c.disputes).length >= 2 ? kept(c.disputes) : [],
      supersedes: kept(c.supersedes),
      import_id: facts.import_id,
    };
    try {
      checkShape(body);
    } catch (error) {
      throw invalid('an illegal claim shape', {
        claim_id: c.claim_id,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
    return body;
  });
  return { claims, skipped_invalidated: parsed.data.claims.length - ordered.length };
};
