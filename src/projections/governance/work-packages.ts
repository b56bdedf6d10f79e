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
import type { ModelStore } from '../../events/index.js';
import { defineProjector, modelKey, modelKeyPrefix, type LogEventOf } from '../projector.js';
import { readsOf } from '../read-model.js';

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
type Data<T extends PackageEvent['type']> = Extract<PackageEvent, { type: T }>['data'];

export const workPackageKey = (projectId: string, id: string) => modelKey('wp', projectId, id);
export const reviewKey = (projectId: string, id: string) => modelKey('review', projectId, id);

/** A project's work packages, for the web view (the surface reads through workPackageQueries). */
export const workPackagesModel = {
  packages: readsOf<WorkPackageView>('work-packages').range((projectId: string) =>
    modelKeyPrefix('wp', projectId),
  ),
};

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

/** Work packages by project and id, and which package each review belongs to. */
export const workPackagesProjector = defineProjector({
  name: 'work-packages',
  version: 1,
  events: [...PACKAGE_EVENTS, BaselineReleased],
  async apply(event, tx) {
    const p = event.project_id;
    if (event.type === 'baseline.released') {
      for (const id of event.data.work_package_ids) {
        const view = await tx.get<WorkPackageView>(workPackageKey(p, id));
        if (view)
          tx.put(workPackageKey(p, id), {
            ...view,
            baselines: [...view.baselines, event.data.baseline_id],
            updated_at: event.created_at,
          });
      }
      return;
    }
    const key = workPackageKey(p, event.data.work_package_id);
    const view = foldWorkPackage(await tx.get<WorkPackageView>(key), event);
    if (view) tx.put(key, view);
    if (event.type === 'review.requested')
      tx.put(reviewKey(p, event.data.review_id), event.data.work_package_id);
  },
});

/** Reads of the work-packages read model. */
export const workPackageQueries = (models: ModelStore) => ({
  workPackage: (projectId: string, id: string) =>
    models.get<WorkPackageView>(`work-packages/${workPackageKey(projectId, id)}`),
  workPackageOfReview: (projectId: string, reviewId: string) =>
    models.get<string>(`work-packages/${reviewKey(projectId, reviewId)}`),
});
