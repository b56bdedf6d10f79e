import { SeqList } from './seq-list.js';
import type { ClaimView } from './snapshot-view.js';

/** Where a snapshot puts a claim, by epistemic status: user-explicit first, disputes last. */
export const RANK = { explicit: 0, evidence: 1, inferred: 2, unknown: 3, disputed: 4 } as const;
type Status = keyof typeof RANK;

/** User-explicit first, then evidence, then inference; newest first; ties by id. */
export const byPriority = (a: ClaimView, b: ClaimView): number =>
  RANK[a.body.epistemic_status] - RANK[b.body.epistemic_status] ||
  b.seq - a.seq ||
  (a.body.claim_id < b.body.claim_id ? -1 : 1);

/** An unpromoted long-term candidate: counted apart, the only claim `now` can make stale. */
export const mayGoStale = (c: ClaimView): boolean => c.body.candidate && !c.promoted;

/**
 * A claim with every reference to a claim no longer held (deleted) taken out: a deleted id
 * shows in no view, snapshot or export, and an export imports again. A dispute left with fewer
 * than two sides stands free, as an import makes it. The same claim when nothing dangles.
 */
export const cleaned = (c: ClaimView, holds: (id: string) => boolean): ClaimView => {
  const { supersedes, disputes } = c.body;
  const superseded_by = c.superseded_by !== null && holds(c.superseded_by) ? c.superseded_by : null;
  const clean = supersedes.every(holds) && disputes.every(holds);
  if (clean && superseded_by === c.superseded_by) return c;
  const sides = disputes.filter(holds);
  return {
    ...c,
    superseded_by,
    body: {
      ...c.body,
      supersedes: supersedes.filter(holds),
      disputes: sides.length >= 2 ? sides : [],
    },
  };
};

/**
 * A task's claims sorted out for its snapshot, kept as claims change rather than sorted again
 * per read (issue 39): each active claim sits in the list of its status, newest first, so a
 * snapshot reads the few claims it shows and the counts; a dispute over a claim no longer
 * active is known through an index of the claims each dispute names. Applying a claim's new
 * value (or its deletion) costs the same whatever the task's size. Mutable: one reader's cache
 * owns it, and a snapshot is computed from it at once.
 */
export class SnapshotIndex {
  readonly #byId = new Map<string, ClaimView>();
  readonly #lists: Record<Status, SeqList> = {
    explicit: new SeqList(),
    evidence: new SeqList(),
    inferred: new SeqList(),
    unknown: new SeqList(),
    disputed: new SeqList(),
  };
  /** active unpromoted long-term candidates */
  readonly #candidates = new Map<string, ClaimView>();
  /** claim id → the disputes (held, any life) that name it */
  readonly #namedBy = new Map<string, Set<string>>();
  /** active disputes naming a claim that is no longer active */
  readonly #overInactive = new Set<string>();

  static of(claims: Iterable<ClaimView>): SnapshotIndex {
    const index = new SnapshotIndex();
    for (const c of claims) index.set(c.body.claim_id, c);
    return index;
  }

  /** Every claim held, as stored (references to deleted claims not yet taken out). */
  get claims(): ReadonlyMap<string, ClaimView> {
    return this.#byId;
  }

  /** A claim held, its references to deleted claims taken out. */
  get(id: string): ClaimView | undefined {
    const c = this.#byId.get(id);
    return c && cleaned(c, this.#holds);
  }

  readonly #holds = (id: string): boolean => this.#byId.has(id);

  /** A claim's value now, or undefined once it is deleted. */
  set(id: string, next: ClaimView | undefined): void {
    const before = this.#byId.get(id);
    if (before) this.#leave(before);
    if (next) this.#enter(next);
    else this.#byId.delete(id);
    this.#recheck(id);
    for (const dispute of this.#namedBy.get(id) ?? []) this.#recheck(dispute);
  }

  #enter(c: ClaimView): void {
    const id = c.body.claim_id;
    this.#byId.set(id, c);
    for (const side of c.body.disputes) {
      const by = this.#namedBy.get(side) ?? new Set<string>();
      this.#namedBy.set(side, by.add(id));
    }
    if (c.life !== 'active') return;
    if (mayGoStale(c)) this.#candidates.set(id, c);
    else this.#lists[c.body.epistemic_status].add(c.seq, id);
  }

  #leave(c: ClaimView): void {
    const id = c.body.claim_id;
    for (const side of c.body.disputes) {
      const by = this.#namedBy.get(side);
      by?.delete(id);
      if (by?.size === 0) this.#namedBy.delete(side);
    }
    this.#candidates.delete(id);
    this.#lists[c.body.epistemic_status].delete(c.seq);
  }

  /** Whether an active dispute names (once cleaned) a claim that is not active. */
  #recheck(id: string): void {
    const c = this.#byId.get(id);
    const listed = c !== undefined && c.life === 'active' && !mayGoStale(c);
    const over =
      listed &&
      c.body.epistemic_status === 'disputed' &&
      cleaned(c, this.#holds).body.disputes.some((side) => this.#byId.get(side)?.life !== 'active');
    if (over) this.#overInactive.add(id);
    else this.#overInactive.delete(id);
  }

  /** Active claims a snapshot counts (candidates apart). */
  get active(): number {
    let n = 0;
    for (const list of Object.values(this.#lists)) n += list.size;
    return n;
  }

  count(status: Status): number {
    return this.#lists[status].size;
  }

  /** The active claims of these statuses in snapshot order, their references cleaned. */
  *ordered(...statuses: Status[]): Generator<ClaimView> {
    for (const status of statuses)
      for (const id of this.#lists[status].newest()) yield this.get(id)!;
  }

  get candidates(): number {
    return this.#candidates.size;
  }

  /** The candidates the user may still confirm, in the order they were added. */
  waiting(): ClaimView[] {
    return [...this.#candidates.keys()].map((id) => this.get(id)!).sort((a, b) => a.seq - b.seq);
  }

  /** The candidates stale at `at` (ms), in snapshot order. */
  staleAt(at: number, staleAfterMs: number): ClaimView[] {
    const stale = [...this.#candidates.values()].filter(
      (c) => at - Date.parse(c.body.valid_from) > staleAfterMs,
    );
    return stale.sort(byPriority);
  }

  /** Active disputes naming a claim that is no longer active, in snapshot order. */
  overInactive(): ClaimView[] {
    return [...this.#overInactive].map((id) => this.#byId.get(id)!).sort(byPriority);
  }
}
