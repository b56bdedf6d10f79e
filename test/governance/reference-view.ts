/**
 * The work-packages view as it was folded before issue 39: one whole value per package, every
 * list copied per event, the code of a29edd4. Kept as the reference the per-item read model must
 * answer exactly as (read-model.property.test.ts); `baselines` are folded by the test.
 */
import type {
  ArtifactLinked,
  CommitLinked,
  GateClosed,
  ReviewRequested,
  ReviewSubmitted,
  WorkPackageClaimed,
  WorkPackageIssued,
  WorkPackageResultSubmitted,
} from '../../src/events/governance/index.js';
import type { LogEventOf } from '../../src/projections/projector.js';
import type {
  ReviewView,
  WorkPackageView,
} from '../../src/projections/governance/work-packages.js';

type PackageEvent = LogEventOf<
  | typeof WorkPackageIssued
  | typeof WorkPackageClaimed
  | typeof WorkPackageResultSubmitted
  | typeof ReviewRequested
  | typeof ReviewSubmitted
  | typeof CommitLinked
  | typeof ArtifactLinked
  | typeof GateClosed
>;
type Data<T extends PackageEvent['type']> = Extract<PackageEvent, { type: T }>['data'];

const issued = (d: Data<'work_package.issued'>, at: string): WorkPackageView => ({
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
  { review_id, verdict, notes, result_number }: Data<'review.submitted'>,
  at: string,
): WorkPackageView => ({
  ...v,
  reviews: v.reviews.map((r) =>
    r.review_id !== review_id
      ? r
      : { ...r, status: 'SUBMITTED', verdict, notes, result_number, submitted_at: at },
  ),
});

const requested = ({ project_id: _p, ...d }: Data<'review.requested'>, at: string): ReviewView => ({
  ...d,
  requested_at: at,
  status: 'PENDING',
  verdict: null,
  notes: null,
  result_number: null,
  submitted_at: null,
});

const closed = (v: WorkPackageView, d: Data<'gate.closed'>, at: string): WorkPackageView => {
  const { status, claimed_by, outcome, reason, closed_by, result_number, approving_review_id } = d;
  const gate = { outcome, reason, closed_by, closed_at: at, result_number, approving_review_id };
  return { ...v, status, claimed_by, gate };
};

/** One event folded into the view of its package; pure, so a rebuild equals the live model. */
export const foldWorkPackage = (
  v: WorkPackageView | undefined,
  e: PackageEvent,
): WorkPackageView | undefined => {
  const at = e.created_at;
  if (e.type === 'work_package.issued') return issued(e.data, at);
  if (!v) return undefined;
  const view = { ...v, updated_at: at };
  switch (e.type) {
    case 'work_package.claimed':
      return { ...view, status: 'CLAIMED', claimed_by: e.data.claimed_by, claimed_at: at };
    case 'work_package.result_submitted': {
      const { project_id: _p, work_package_id: _w, ...result } = e.data;
      return { ...view, status: 'SUBMITTED', result: { ...result, submitted_at: at } };
    }
    case 'review.requested':
      return { ...view, reviews: [...v.reviews, requested(e.data, at)] };
    case 'review.submitted':
      return reviewed(view, e.data, at);
    case 'commit.linked': {
      const { project_id: _p, work_package_id: _w, ...link } = e.data;
      return {
        ...view,
        links: { ...v.links, commits: [...v.links.commits, { ...link, linked_at: at }] },
      };
    }
    case 'artifact.linked': {
      const { project_id: _p, work_package_id: _w, ...link } = e.data;
      const artifacts = [...v.links.artifacts, { ...link, linked_at: at }];
      return { ...view, links: { ...v.links, artifacts } };
    }
    case 'gate.closed':
      return closed(view, e.data, at);
  }
};
