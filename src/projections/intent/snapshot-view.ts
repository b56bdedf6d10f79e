import type { ClaimBody, IntentMode } from '../../events/intent/index.js';
import { cleaned, SnapshotIndex } from './snapshot-index.js';

/**
 * The intent snapshot, as a pure function of a task's claims: capped, deterministic (the same
 * claims and `now` give byte-identical JSON), and honest about what it left out. A conflict is
 * never resolved to fit the cap: every unresolved dispute is counted, each one shown lists the
 * claims it disputes with their statements, whether or not they made the current list.
 */
export type ClaimView = {
  body: ClaimBody;
  life: 'active' | 'superseded' | 'invalidated';
  superseded_by: string | null;
  promoted: boolean;
  /** order of addition within the task */
  seq: number;
};

export type TaskHead = {
  project_id: string;
  task_id: string;
  mode: IntentMode;
  deleted: boolean;
  started_at: string;
  candidate_count: number;
  imports: number;
};

export const SNAPSHOT_CAPS = { current: 40, unknowns: 20, disputes: 20, chars: 16_000 } as const;
export type SnapshotCaps = { readonly [K in keyof typeof SNAPSHOT_CAPS]: number };
/** An unconfirmed inferred long-term claim goes stale after this long (NOTES.md). */
export const STALE_AFTER_MS = 90 * 24 * 60 * 60 * 1000;

export type ClaimLine = {
  claim_id: string;
  statement: string;
  epistemic_status: ClaimBody['epistemic_status'];
  role: ClaimBody['role'];
  scope: ClaimBody['scope'];
  source_kind: ClaimBody['source_ref']['kind'];
  confidence: number | null;
  facets: ClaimBody['facets'];
  affects_decision: string | null;
  feedback_class?: ClaimBody['feedback_class'];
  supersedes: string[];
  imported: boolean;
  valid_from: string;
};

export type DisputeLine = ClaimLine & {
  disputed_claims: { claim_id: string; statement: string | null; life: string }[];
};

export type StaleWarning = {
  claim_id: string;
  reason: 'long_term_unconfirmed' | 'dispute_over_inactive_claim';
};

export type Snapshot = {
  project_id: string;
  task_id: string;
  mode: IntentMode;
  active_claims: number;
  current: ClaimLine[];
  unknowns: ClaimLine[];
  disputes: DisputeLine[];
  unresolved_disputes: number;
  open_unknowns: number;
  stale_warnings: StaleWarning[];
  candidate_count: number;
  incomplete_external_history: boolean;
  omitted: { current: number; unknowns: number; disputes: number };
  truncated: boolean;
};

const line = ({ body }: ClaimView): ClaimLine => ({
  claim_id: body.claim_id,
  statement: body.statement,
  epistemic_status: body.epistemic_status,
  role: body.role,
  scope: body.scope,
  source_kind: body.source_ref.kind,
  confidence: body.confidence,
  facets: body.facets,
  affects_decision: body.affects_decision,
  ...(body.feedback_class === undefined ? {} : { feedback_class: body.feedback_class }),
  supersedes: body.supersedes,
  imported: body.import_id !== null,
  valid_from: body.valid_from,
});

/** Takes claims in order while both the count and the shared character budget allow. */
const take = (items: Iterable<ClaimView>, max: number, budget: { chars: number }): ClaimView[] => {
  const kept: ClaimView[] = [];
  if (max <= 0) return kept;
  for (const item of items) {
    const length = item.body.statement.length;
    if (length > budget.chars) break;
    budget.chars -= length;
    kept.push(item);
    if (kept.length >= max) break;
  }
  return kept;
};

const disputeLine = (c: ClaimView, index: SnapshotIndex): DisputeLine => ({
  ...line(c),
  disputed_claims: c.body.disputes.map((id) => {
    const target = index.claims.get(id);
    return {
      claim_id: id,
      statement: target?.body.statement ?? null,
      life: target?.life ?? 'deleted',
    };
  }),
});

/**
 * A task's claims with every reference to a claim no longer in the task (deleted) taken out
 * (`cleaned`, claim by claim): what a view or an export lists.
 */
export const withoutDangling = (claims: readonly ClaimView[]): ClaimView[] => {
  const ids = new Set(claims.map((c) => c.body.claim_id));
  return claims.map((c) => cleaned(c, (id) => ids.has(id)));
};

/**
 * A long-term candidate waiting for the three-task plus confirmation rule is no current claim
 * (contracts/intent.md): it is counted with the candidates, never shown as what the user wants.
 * The index hands over its lists already in order, so a snapshot reads the claims it shows, the
 * counts, and the candidates `now` may make stale (issue 39).
 */
export const snapshotOf = (
  head: TaskHead,
  index: SnapshotIndex,
  now: string,
  caps: SnapshotCaps = SNAPSHOT_CAPS,
): Snapshot => {
  // only candidates go stale, and they are in none of the lists below
  const stale = index.staleAt(Date.parse(now), STALE_AFTER_MS);
  const counts = {
    disputes: index.count('disputed'),
    unknowns: index.count('unknown'),
    current: index.count('explicit') + index.count('evidence') + index.count('inferred'),
  };
  // conflicts first: the budget goes to what is unresolved before what is settled
  const budget = { chars: caps.chars };
  const shownDisputes = take(index.ordered('disputed'), caps.disputes, budget);
  const shownUnknowns = take(index.ordered('unknown'), caps.unknowns, budget);
  const shownCurrent = take(
    index.ordered('explicit', 'evidence', 'inferred'),
    caps.current,
    budget,
  );
  const omitted = {
    current: counts.current - shownCurrent.length,
    unknowns: counts.unknowns - shownUnknowns.length,
    disputes: counts.disputes - shownDisputes.length,
  };
  return {
    project_id: head.project_id,
    task_id: head.task_id,
    mode: head.mode,
    active_claims: index.active,
    current: shownCurrent.map(line),
    unknowns: shownUnknowns.map(line),
    disputes: shownDisputes.map((d) => disputeLine(d, index)),
    unresolved_disputes: counts.disputes,
    open_unknowns: counts.unknowns,
    stale_warnings: [
      ...stale.map((c) => ({
        claim_id: c.body.claim_id,
        reason: 'long_term_unconfirmed' as const,
      })),
      ...index.overInactive().map((c) => ({
        claim_id: c.body.claim_id,
        reason: 'dispute_over_inactive_claim' as const,
      })),
    ],
    candidate_count: head.candidate_count + index.candidates,
    incomplete_external_history: head.imports > 0,
    omitted,
    truncated: omitted.current + omitted.unknowns + omitted.disputes > 0,
  };
};

/** The snapshot of a task's claims at `now` in one step (export's summary, tests). */
export const buildSnapshot = (
  head: TaskHead,
  claims: readonly ClaimView[],
  now: string,
  caps: SnapshotCaps = SNAPSHOT_CAPS,
): Snapshot => snapshotOf(head, SnapshotIndex.of(claims), now, caps);
