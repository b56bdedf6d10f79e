import type {
  ClaimBody,
  ClaimRole,
  ClaimScope,
  EpistemicStatus,
  ExplicitBasis,
  Facet,
  FeedbackClass,
  SourceRef,
} from '../../events/intent/index.js';
import { EXCERPT_MAX, STATEMENT_MAX, redactAndCap } from './redact.js';

/** A claim as a caller states it, before ids, redaction, caps and the long-term rule. */
export type ClaimInput = {
  epistemic_status: EpistemicStatus;
  statement: string;
  role?: ClaimRole | undefined;
  source_ref: {
    kind: SourceRef['kind'];
    event_id?: string | undefined;
    sha256?: string | undefined;
    excerpt?: string | undefined;
  };
  basis?: ExplicitBasis | undefined;
  confidence?: number | undefined;
  scope?: ClaimScope | undefined;
  facets?: Facet[] | undefined;
  affects_decision?: string | undefined;
  disputes?: string[] | undefined;
  supersedes?: string[] | undefined;
  signal_key?: string | undefined;
  feedback_class?: FeedbackClass | undefined;
};

/** What redaction and the caps did to a claim's text: the caller is told, never surprised. */
export type TextReport = { redactions: number; truncated: boolean };

const DEFAULT_ROLE: Record<EpistemicStatus, ClaimRole> = {
  explicit: 'goal',
  inferred: 'goal',
  evidence: 'result',
  unknown: 'question',
  disputed: 'decision',
};

/**
 * Only a direct user declaration makes a long-term claim at once; any other long-term claim
 * waits as a candidate for the three-task plus confirmation rule.
 */
const isCandidate = (input: ClaimInput): boolean =>
  input.scope === 'long_term' &&
  !(input.epistemic_status === 'explicit' && input.basis === 'direct_statement');

export const toClaimBody = (
  input: ClaimInput,
  facts: { claim_id: string; now: string; import_id?: string | null },
): { body: ClaimBody; report: TextReport } => {
  const statement = redactAndCap(input.statement, STATEMENT_MAX);
  const excerpt =
    input.source_ref.excerpt === undefined
      ? undefined
      : redactAndCap(input.source_ref.excerpt, EXCERPT_MAX);
  const decision =
    input.affects_decision === undefined
      ? undefined
      : redactAndCap(input.affects_decision, STATEMENT_MAX);
  const body: ClaimBody = {
    claim_id: facts.claim_id,
    statement: statement.text,
    role: input.role ?? DEFAULT_ROLE[input.epistemic_status],
    epistemic_status: input.epistemic_status,
    source_ref: {
      kind: input.source_ref.kind,
      event_id: input.source_ref.event_id ?? null,
      sha256: input.source_ref.sha256 ?? null,
      excerpt: excerpt?.text ?? null,
    },
    basis: input.basis ?? null,
    scope: input.scope ?? 'task',
    confidence: input.confidence ?? null,
    facets: [...new Set(input.facets ?? [])].sort(),
    affects_decision: decision?.text ?? null,
    disputes: input.disputes ?? [],
    supersedes: input.supersedes ?? [],
    candidate: isCandidate(input),
    import_id: facts.import_id ?? null,
    valid_from: facts.now,
    ...(input.signal_key === undefined ? {} : { signal_key: input.signal_key }),
    ...(input.feedback_class === undefined ? {} : { feedback_class: input.feedback_class }),
  };
  const parts = [statement, excerpt, decision].filter((p) => p !== undefined);
  return {
    body,
    report: {
      redactions: parts.reduce((n, p) => n + p.redactions, 0),
      truncated: parts.some((p) => p.truncated),
    },
  };
};
