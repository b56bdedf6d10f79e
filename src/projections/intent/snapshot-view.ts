import type { ClaimBody, IntentMode } from '../../events/intent/index.js';

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

const RANK = { explicit: 0, evidence: 1, inferred: 2, unknown: 3, disputed: 4 } as const;

/** User-explicit first, then evidence, then inference; newest first; ties by id. */
const byPriority = (a: ClaimView, b: ClaimView): number =>
  RANK[a.body.epistemic_status] - RANK[b.body.epistemic_status] ||
  b.seq - a.seq ||
  (a.body.claim_id < b.body.claim_id ? -1 : 1);

const mayGoStale = (c: ClaimView): boolean => c.body.candidate && !c.promoted;
const isStale = (c: ClaimView, now: number): boolean =>
  mayGoStale(c) && now - Date.parse(c.body.valid_from) > STALE_AFTER_MS;

/** Takes items in order while both the count and the shared character budget allow. */
const take = (items: readonly ClaimView[], max: number, budget: { chars: number }): ClaimView[] => {
  const kept: ClaimView[] = [];
  for (const item of items) {
    const length = item.body.statement.length;
    if (kept.length >= max || length > budget.chars) break;
    budget.chars -= length;
    kept.push(item);
  }
  return kept;
};

const disputeLine = (c: ClaimView, byId: ReadonlyMap<string, ClaimView>): DisputeLine => ({
  ...line(c),
  disputed_claims: c.body.disputes.map((id) => {
    const target = byId.get(id);
    return {
      claim_id: id,
      statement: target?.body.statement ?? null,
      life: target?.life ?? 'deleted',
    };
  }),
});

/**
 * What a snapshot needs of a task's claims that does not depend on `now`: sorted and sorted
 * out once per log position (a read cache keeps it), so a repeated snapshot of a task of
 * thousands of claims only checks the few that can go stale and formats the lines it shows.
 */
export type PreparedClaims = {
  byId: ReadonlyMap<string, ClaimView>;
  active: number;
  disputes: readonly ClaimView[];
  unknowns: readonly ClaimView[];
  current: readonly ClaimView[];
  /** active candidates not yet promoted: counted apart, the only claims `now` can make stale */
  candidates: readonly ClaimView[];
  /** active disputes naming a claim that is no longer active */
  overInactive: readonly ClaimView[];
};

/**
 * A task's claims with every reference to a claim no longer in the task (deleted) taken out:
 * a deleted id shows in no view, snapshot or export, and an export imports again. A dispute
 * left with fewer than two sides stands free, as an import makes it.
 */
export const withoutDangling = (claims: readonly ClaimView[]): ClaimView[] => {
  const ids = new Set(claims.map((c) => c.body.claim_id));
  return claims.map((c) => {
    const { supersedes, disputes } = c.body;
    const superseded_by =
      c.superseded_by !== null && ids.has(c.superseded_by) ? c.superseded_by : null;
    const clean = supersedes.every((id) => ids.has(id)) && disputes.every((id) => ids.has(id));
    if (clean && superseded_by === c.superseded_by) return c;
    const sides = disputes.filter((id) => ids.has(id));
    return {
      ...c,
      superseded_by,
      body: {
        ...c.body,
        supersedes: supersedes.filter((id) => ids.has(id)),
        disputes: sides.length >= 2 ? sides : [],
      },
    };
  });
};

/**
 * A long-term candidate waiting for the three-task plus confirmation rule is no current claim
 * (contracts/intent.md): it is counted with the candidates, never shown as what the user wants.
 */
export const prepareClaims = (claims: readonly ClaimView[]): PreparedClaims => {
  const live = claims.filter((c) => c.life === 'active').sort(byPriority);
  const active = live.filter((c) => !mayGoStale(c));
  const byId = new Map(claims.map((c) => [c.body.claim_id, c]));
  const disputes = active.filter((c) => c.body.epistemic_status === 'disputed');
  return {
    byId,
    active: active.length,
    disputes,
    unknowns: active.filter((c) => c.body.epistemic_status === 'unknown'),
    current: active.filter((c) => RANK[c.body.epistemic_status] < RANK.unknown),
    candidates: live.filter(mayGoStale),
    overInactive: disputes.filter((d) =>
      d.body.disputes.some((id) => byId.get(id)?.life !== 'active'),
    ),
  };
};

export const snapshotOf = (
  head: TaskHead,
  prepared: PreparedClaims,
  now: string,
  caps: SnapshotCaps = SNAPSHOT_CAPS,
): Snapshot => {
  const at = Date.parse(now);
  const stale = prepared.candidates.filter((c) => isStale(c, at));
  const staleIds = new Set(stale.map((c) => c.body.claim_id));
  const live = (list: readonly ClaimView[]) =>
    staleIds.size === 0 ? list : list.filter((c) => !staleIds.has(c.body.claim_id));
  const disputes = live(prepared.disputes);
  const unknowns = live(prepared.unknowns);
  const current = live(prepared.current);
  // conflicts first: the budget goes to what is unresolved before what is settled
  const budget = { chars: caps.chars };
  const shownDisputes = take(disputes, caps.disputes, budget);
  const shownUnknowns = take(unknowns, caps.unknowns, budget);
  const shownCurrent = take(current, caps.current, budget);
  const overInactive = live(prepared.overInactive);
  const omitted = {
    current: current.length - shownCurrent.length,
    unknowns: unknowns.length - shownUnknowns.length,
    disputes: disputes.length - shownDisputes.length,
  };
  return {
    project_id: head.project_id,
    task_id: head.task_id,
    mode: head.mode,
    active_claims: prepared.active,
    current: shownCurrent.map(line),
    unknowns: shownUnknowns.map(line),
    disputes: shownDisputes.map((d) => disputeLine(d, prepared.byId)),
    unresolved_disputes: disputes.length,
    open_unknowns: unknowns.length,
    stale_warnings: [
      ...stale.map((c) => ({
        claim_id: c.body.claim_id,
        reason: 'long_term_unconfirmed' as const,
      })),
      ...overInactive.map((c) => ({
        claim_id: c.body.claim_id,
        reason: 'dispute_over_inactive_claim' as const,
      })),
    ],
    candidate_count: head.candidate_count + prepared.candidates.length,
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
): Snapshot => snapshotOf(head, prepareClaims(claims), now, caps);
