import type {
  ArtifactLinked,
  CommitLinked,
  GateClosed,
  GateOutcome,
  ReviewRequested,
  ReviewSubmitted,
  Verdict,
  WorkPackageIssued,
  WorkPackageResultSubmitted,
  WorkPackageStatus,
} from '../events/catalog/governance.js';
import type { EventOf, LogEvent, ModelStore } from '../events/index.js';
import type { Projector } from './projector.js';

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
  links: {
    commits: {
      commit_id: string;
      repository: string | null;
      linked_by: string;
      linked_at: string;
    }[];
    artifacts: { uri: string; title: string | null; linked_by: string; linked_at: string }[];
  };
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

/** The payload of an event type: the log validated it against the catalog on append. */
type Payload<D> = EventOf<D>['data'];
const seg = encodeURIComponent;
export const workPackageKey = (projectId: string, id: string) => `wp/${seg(projectId)}/${seg(id)}`;
export const reviewKey = (projectId: string, id: string) => `review/${seg(projectId)}/${seg(id)}`;

const issued = (d: Payload<typeof WorkPackageIssued>, at: string): WorkPackageView => ({
  ...d,
  status: 'OPEN',
  issued_at: at,
  claimed_by: null,
  claimed_at: null,
  result: null,
  reviews: [],
  links: { commits: [], artifacts: [] },
  gate: null,
  baselines: [],
  updated_at: at,
});

const reviewed = (
  v: WorkPackageView,
  { review_id, verdict, notes, result_number }: Payload<typeof ReviewSubmitted>,
  at: string,
): WorkPackageView => ({
  ...v,
  reviews: v.reviews.map((r) =>
    r.review_id !== review_id
      ? r
      : { ...r, status: 'SUBMITTED', verdict, notes, result_number, submitted_at: at },
  ),
});

const requested = (
  { project_id: _p, ...d }: Payload<typeof ReviewRequested>,
  at: string,
): ReviewView => ({
  ...d,
  requested_at: at,
  status: 'PENDING',
  verdict: null,
  notes: null,
  result_number: null,
  submitted_at: null,
});

const closed = (
  v: WorkPackageView,
  {
    status,
    claimed_by,
    outcome,
    reason,
    closed_by,
    result_number,
    approving_review_id,
  }: Payload<typeof GateClosed>,
  at: string,
): WorkPackageView => ({
  ...v,
  status,
  claimed_by,
  gate: { outcome, reason, closed_by, closed_at: at, result_number, approving_review_id },
});

/** One event folded into the view of its package; pure, so a rebuild equals the live model. */
export const foldWorkPackage = (
  v: WorkPackageView | undefined,
  { type, data, created_at: at }: LogEvent,
): WorkPackageView | undefined => {
  if (type === 'work_package.issued') return issued(data as Payload<typeof WorkPackageIssued>, at);
  if (!v) return undefined;
  const view = { ...v, updated_at: at };
  switch (type) {
    case 'work_package.claimed':
      return { ...view, status: 'CLAIMED', claimed_by: data.claimed_by as string, claimed_at: at };
    case 'work_package.result_submitted': {
      const {
        project_id: _p,
        work_package_id: _w,
        ...result
      } = data as Payload<typeof WorkPackageResultSubmitted>;
      return { ...view, status: 'SUBMITTED', result: { ...result, submitted_at: at } };
    }
    case 'review.requested':
      return {
        ...view,
        reviews: [...v.reviews, requested(data as Payload<typeof ReviewRequested>, at)],
      };
    case 'review.submitted':
      return reviewed(view, data as Payload<typeof ReviewSubmitted>, at);
    case 'commit.linked': {
      const { project_id: _p, work_package_id: _w, ...link } = data as Payload<typeof CommitLinked>;
      const commits = [...v.links.commits, { ...link, linked_at: at }];
      return { ...view, links: { ...v.links, commits } };
    }
    case 'artifact.linked': {
      const {
        project_id: _p,
        work_package_id: _w,
        ...link
      } = data as Payload<typeof ArtifactLinked>;
      const artifacts = [...v.links.artifacts, { ...link, linked_at: at }];
      return { ...view, links: { ...v.links, artifacts } };
    }
    case 'gate.closed':
      return closed(view, data as Payload<typeof GateClosed>, at);
    case 'baseline.released':
      return { ...view, baselines: [...v.baselines, data.baseline_id as string] };
  }
  return v;
};

const PACKAGE_EVENTS = [
  'work_package.issued',
  'work_package.claimed',
  'work_package.result_submitted',
  'review.requested',
  'review.submitted',
  'commit.linked',
  'artifact.linked',
  'gate.closed',
];

/** Work packages by project and id, and which package each review belongs to. */
export const workPackagesProjector: Projector = {
  name: 'work-packages',
  version: 1,
  handles: [...PACKAGE_EVENTS, 'baseline.released'],
  async apply(event, tx) {
    const p = event.project_id;
    const ids =
      event.type === 'baseline.released'
        ? (event.data.work_package_ids as string[])
        : [event.data.work_package_id as string];
    for (const id of ids) {
      const view = foldWorkPackage(await tx.get<WorkPackageView>(workPackageKey(p, id)), event);
      if (view) tx.put(workPackageKey(p, id), view);
    }
    if (event.type === 'review.requested')
      tx.put(reviewKey(p, event.data.review_id as string), event.data.work_package_id);
  },
};

/** Reads of the work-packages read model. */
export const workPackageQueries = (models: ModelStore) => ({
  workPackage: (projectId: string, id: string) =>
    models.get<WorkPackageView>(`work-packages/${workPackageKey(projectId, id)}`),
  workPackageOfReview: (projectId: string, reviewId: string) =>
    models.get<string>(`work-packages/${reviewKey(projectId, reviewId)}`),
});
