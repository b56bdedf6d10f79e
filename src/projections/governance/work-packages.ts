import {
  ArtifactLinked,
  BaselineReleased,
  CommitLinked,
  GateClosed,
  ReviewRequested,
  ReviewSubmitted,
  WorkPackageClaimed,
  WorkPackageIssued,
  WorkPackageResultSubmitted,
  type GateOutcome,
  type Verdict,
  type WorkPackageStatus,
} from '../../events/governance/index.js';
import {
  defineProjector,
  modelKey,
  modelKeyPrefix,
  type LogEventOf,
  type ModelTx,
} from '../projector.js';
import { readsOf, type ValueRead } from '../read-model.js';

/** A work package as `get_work_package` shows it: the command result's fields plus times. */
export type ReviewView = {
  review_id: string;
  work_package_id: string;
  reviewer_id: string;
  requested_by: string;
  requested_at: string;
  status: 'PENDING' | 'SUBMITTED';
  verdict: Verdict | null;
  notes: string | null;
  result_number: number | null;
  submitted_at: string | null;
};
export type CommitView = {
  commit_id: string;
  repository: string | null;
  linked_by: string;
  linked_at: string;
};
export type ArtifactView = {
  uri: string;
  title: string | null;
  linked_by: string;
  linked_at: string;
};

export type WorkPackageView = {
  project_id: string;
  work_package_id: string;
  title: string;
  description: string | null;
  acceptance_criteria: string[];
  status: WorkPackageStatus;
  issued_by: string;
  issued_at: string;
  claimed_by: string | null;
  claimed_at: string | null;
  result: {
    result_number: number;
    summary: string;
    submitted_by: string;
    submitted_at: string;
  } | null;
  reviews: ReviewView[];
  links: { commits: CommitView[]; artifacts: ArtifactView[] };
  gate: {
    outcome: GateOutcome;
    reason: string | null;
    closed_by: string;
    closed_at: string;
    result_number: number;
    approving_review_id: string | null;
  } | null;
  /** baselines released with this package */
  baselines: string[];
  updated_at: string;
};

/** The lists of a package that grow with its history, each stored item by item. */
export type PackageItems = {
  reviews: ReviewView;
  commits: CommitView;
  artifacts: ArtifactView;
  /** a baseline's id */
  baselines: string;
};
export type PackageList = keyof PackageItems;

/**
 * A package without its growing lists: the one value every event of the package rewrites, the
 * same size whatever its history (issue 39: the whole view with every link was rewritten per
 * link, 5 KB at 10 links, 464 KB at 4,000).
 */
export type WorkPackageHead = Omit<WorkPackageView, 'reviews' | 'links' | 'baselines'> & {
  /** how many items each list holds; an item's number is its place in the list (0, 1, …) */
  counts: Record<PackageList, number>;
};

/** Where a review is: its package, and its number in the package's reviews. */
export type ReviewPlace = { work_package_id: string; number: number };

export type StatusCounts = Record<WorkPackageStatus, number>;

/** An item's number as its key part: wide enough for any count, so keys sort as numbers do. */
const itemPart = (n: number) => String(n).padStart(10, '0');

/**
 * The keyspace, under `work-packages/`: `wp/<p>/<wp>` the head; `item/<p>/<wp>/<list>/<n>` the
 * n-th item of a list; `review/<p>/<review>` where a review is; `by-state/<p>/<status>/<updated
 * at>/<wp>` one entry per package, so a state's packages read newest first without a sort;
 * `count/<p>` how many packages are in each state.
 */
export const WorkPackageKeys = {
  head: (projectId: string, id: string) => modelKey('wp', projectId, id),
  heads: (projectId: string) => modelKeyPrefix('wp', projectId),
  item: (projectId: string, id: string, list: PackageList, n: number) =>
    modelKey('item', projectId, id, list, itemPart(n)),
  review: (projectId: string, reviewId: string) => modelKey('review', projectId, reviewId),
  byState: (
    head: Pick<WorkPackageHead, 'project_id' | 'status' | 'updated_at' | 'work_package_id'>,
  ) => modelKey('by-state', head.project_id, head.status, head.updated_at, head.work_package_id),
  inState: (projectId: string, status: WorkPackageStatus) =>
    modelKeyPrefix('by-state', projectId, status),
  counts: (projectId: string) => modelKey('count', projectId),
};

const reads = <V>() => readsOf<V>('work-packages');

/** The n-th item of one of a package's lists (`n` in decimal). */
type ItemRead<L extends PackageList> = ValueRead<
  PackageItems[L],
  [projectId: string, id: string, n: string]
>;
const itemOf = <L extends PackageList>(list: L): ItemRead<L> =>
  reads<PackageItems[L]>().value((p: string, wp: string, n: string) =>
    WorkPackageKeys.item(p, wp, list, Number(n)),
  );

const items: { [L in PackageList]: ItemRead<L> } = {
  reviews: itemOf('reviews'),
  commits: itemOf('commits'),
  artifacts: itemOf('artifacts'),
  baselines: itemOf('baselines'),
};

/** Typed reads of the keyspace; readers go through work-package-reads.ts, which assembles them. */
export const workPackagesModel = {
  head: reads<WorkPackageHead>().value(WorkPackageKeys.head),
  heads: reads<WorkPackageHead>().range(WorkPackageKeys.heads),
  /** a list's n-th item, by list */
  items,
  review: reads<ReviewPlace>().value(WorkPackageKeys.review),
  /** a state's package ids, by when they last changed */
  inState: reads<string>().range(WorkPackageKeys.inState),
  counts: reads<StatusCounts>().value(WorkPackageKeys.counts),
};

const PACKAGE_EVENTS = [
  WorkPackageIssued,
  WorkPackageClaimed,
  WorkPackageResultSubmitted,
  ReviewRequested,
  ReviewSubmitted,
  CommitLinked,
  ArtifactLinked,
  GateClosed,
] as const;
type PackageEvent = LogEventOf<(typeof PACKAGE_EVENTS)[number]>;
type On<T extends PackageEvent['type']> = Extract<PackageEvent, { type: T }>;

const noItems = (): WorkPackageHead['counts'] => ({
  reviews: 0,
  commits: 0,
  artifacts: 0,
  baselines: 0,
});

const issued = ({ data: d, created_at: at }: On<'work_package.issued'>): WorkPackageHead => ({
  ...d,
  status: 'OPEN',
  issued_at: at,
  claimed_by: null,
  claimed_at: null,
  result: null,
  gate: null,
  updated_at: at,
  counts: noItems(),
});

/** Appends an item to one of the head's lists: the item under its number, the count one more. */
const appended = <L extends PackageList>(
  tx: ModelTx,
  head: WorkPackageHead,
  list: L,
  item: PackageItems[L],
): WorkPackageHead => {
  const n = head.counts[list];
  tx.put(WorkPackageKeys.item(head.project_id, head.work_package_id, list, n), item);
  return { ...head, counts: { ...head.counts, [list]: n + 1 } };
};

const requested = (tx: ModelTx, head: WorkPackageHead, e: On<'review.requested'>) => {
  const { project_id: p, work_package_id, review_id, ...asked } = e.data;
  const place: ReviewPlace = { work_package_id, number: head.counts.reviews };
  tx.put(WorkPackageKeys.review(p, review_id), place);
  return appended(tx, head, 'reviews', {
    review_id,
    work_package_id,
    ...asked,
    requested_at: e.created_at,
    status: 'PENDING',
    verdict: null,
    notes: null,
    result_number: null,
    submitted_at: null,
  });
};

const reviewed = async (tx: ModelTx, e: On<'review.submitted'>): Promise<void> => {
  const { project_id: p, work_package_id: wp, review_id, verdict, notes, result_number } = e.data;
  const place = await tx.get<ReviewPlace>(WorkPackageKeys.review(p, review_id));
  if (!place || place.work_package_id !== wp) return;
  const key = WorkPackageKeys.item(p, wp, 'reviews', place.number);
  const review = await tx.get<ReviewView>(key);
  if (!review) return;
  const submitted_at = e.created_at;
  tx.put(key, { ...review, status: 'SUBMITTED', verdict, notes, result_number, submitted_at });
};

/** One event folded into its package's head, writing the items it adds or changes. */
const foldPackage = async (
  tx: ModelTx,
  before: WorkPackageHead,
  e: Exclude<PackageEvent, On<'work_package.issued'>>,
): Promise<WorkPackageHead> => {
  const at = e.created_at;
  const head = { ...before, updated_at: at };
  switch (e.type) {
    case 'work_package.claimed':
      return { ...head, status: 'CLAIMED', claimed_by: e.data.claimed_by, claimed_at: at };
    case 'work_package.result_submitted': {
      const { project_id: _p, work_package_id: _w, ...result } = e.data;
      return { ...head, status: 'SUBMITTED', result: { ...result, submitted_at: at } };
    }
    case 'review.requested':
      return requested(tx, head, e);
    case 'review.submitted':
      await reviewed(tx, e);
      return head;
    case 'commit.linked': {
      const { project_id: _p, work_package_id: _w, ...link } = e.data;
      return appended(tx, head, 'commits', { ...link, linked_at: at });
    }
    case 'artifact.linked': {
      const { project_id: _p, work_package_id: _w, ...link } = e.data;
      return appended(tx, head, 'artifacts', { ...link, linked_at: at });
    }
    case 'gate.closed': {
      const { status, claimed_by, outcome, reason, closed_by, result_number } = e.data;
      const { approving_review_id } = e.data;
      const gate = {
        outcome,
        reason,
        closed_by,
        closed_at: at,
        result_number,
        approving_review_id,
      };
      return { ...head, status, claimed_by, gate };
    }
  }
};

/** Writes a package's new head, and keeps the by-state index and the project's counts with it. */
const saved = async (tx: ModelTx, before: WorkPackageHead | undefined, head: WorkPackageHead) => {
  tx.put(WorkPackageKeys.head(head.project_id, head.work_package_id), head);
  const from = before && WorkPackageKeys.byState(before);
  const to = WorkPackageKeys.byState(head);
  if (from === to) return;
  if (from) tx.del(from);
  tx.put(to, head.work_package_id);
  if (before?.status === head.status) return;
  const key = WorkPackageKeys.counts(head.project_id);
  const counts = { ...((await tx.get<StatusCounts>(key)) ?? noStatusCounts()) };
  if (before) counts[before.status]--;
  counts[head.status]++;
  tx.put(key, counts);
};

export const noStatusCounts = (): StatusCounts => ({
  OPEN: 0,
  CLAIMED: 0,
  SUBMITTED: 0,
  ACCEPTED: 0,
  REJECTED: 0,
});

const headOf = (tx: ModelTx, projectId: string, id: string) =>
  tx.get<WorkPackageHead>(WorkPackageKeys.head(projectId, id));

/**
 * Work packages by project and id, stored per item: an event writes its package's head (bounded
 * in size) and only the list items it adds or changes, so the bytes an event writes do not grow
 * with the package's history. Also which package each review belongs to, and an index of the
 * packages by state, newest first, with a count per state.
 */
export const workPackagesProjector = defineProjector({
  name: 'work-packages',
  version: 2,
  events: [...PACKAGE_EVENTS, BaselineReleased],
  async apply(event, tx) {
    const p = event.project_id;
    switch (event.type) {
      case 'baseline.released':
        for (const id of event.data.work_package_ids) {
          const before = await headOf(tx, p, id);
          if (!before) continue;
          const head = { ...before, updated_at: event.created_at };
          await saved(tx, before, appended(tx, head, 'baselines', event.data.baseline_id));
        }
        return;
      case 'work_package.issued':
        return saved(tx, await headOf(tx, p, event.data.work_package_id), issued(event));
      default: {
        const before = await headOf(tx, p, event.data.work_package_id);
        if (before) await saved(tx, before, await foldPackage(tx, before, event));
      }
    }
  },
});
