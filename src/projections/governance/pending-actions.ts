import {
  EscalationRaised,
  EscalationResolved,
  GateClosed,
  ReviewRequested,
  ReviewSubmitted,
  WorkPackageClaimed,
  WorkPackageIssued,
  WorkPackageResultSubmitted,
} from '../../events/governance/index.js';
import type { Role } from '../../events/project/index.js';
import type { LogEvent, ModelStore } from '../../events/index.js';
import { defineProjector, modelKey, type LogEventOf, type ModelTx } from '../projector.js';

/** Something a member should do next, and the tool that does it. */
export type PendingAction = {
  action: 'submit_review' | 'close_gate' | 'submit_result' | 'resolve_escalation';
  reason:
    'review_assigned' | 'result_awaiting_gate' | 'claimed_awaiting_result' | 'escalation_open';
  project_id: string;
  work_package_id: string | null;
  review_id: string | null;
  escalation_id: string | null;
  /** the work package's title, or the escalation's subject */
  title: string;
  /** when it became pending */
  since: string;
  /** for a gate: whether an independent APPROVE of the latest result is in (ACCEPT would pass) */
  ready_to_accept: boolean | null;
};

/** What the projector remembers of a package to keep its actions right. */
type PackageNote = {
  title: string;
  claimed_by: string | null;
  /** the latest result (0 before the first) */
  result_number: number;
  pending_reviews: { review_id: string; reviewer_id: string }[];
};

const seg = encodeURIComponent;
const keys = {
  note: (p: string, wp: string) => modelKey('pkg', p, wp),
  review: (p: string, actor: string, rev: string) => modelKey('reviewer', p, actor, rev),
  claim: (p: string, actor: string, wp: string) => modelKey('claimant', p, actor, wp),
  gate: (p: string, wp: string) => modelKey('gate', p, wp),
  escalation: (p: string, target: string | null, esc: string) =>
    modelKey('escalation', p, target ?? 'ANY', esc),
};

const action = (
  e: Pick<LogEvent, 'project_id' | 'created_at'>,
  fields: Pick<PendingAction, 'action' | 'reason' | 'title'> & Partial<PendingAction>,
): PendingAction => ({
  project_id: e.project_id,
  work_package_id: null,
  review_id: null,
  escalation_id: null,
  since: e.created_at,
  ready_to_accept: null,
  ...fields,
});

const EVENTS = [
  WorkPackageIssued,
  WorkPackageClaimed,
  WorkPackageResultSubmitted,
  ReviewRequested,
  ReviewSubmitted,
  GateClosed,
  EscalationRaised,
  EscalationResolved,
] as const;
type Event = LogEventOf<(typeof EVENTS)[number]>;
type On<T extends Event['type']> = Extract<Event, { type: T }>;

const claimAction = (e: Event, wp: string, title: string) =>
  action(e, {
    action: 'submit_result',
    reason: 'claimed_awaiting_result',
    work_package_id: wp,
    title,
  });

const claimed = (e: On<'work_package.claimed'>, tx: ModelTx, note: PackageNote): PackageNote => {
  const wp = e.data.work_package_id;
  tx.put(keys.claim(e.project_id, e.data.claimed_by, wp), claimAction(e, wp, note.title));
  return { ...note, claimed_by: e.data.claimed_by };
};

const submitted = (e: On<'work_package.result_submitted'>, tx: ModelTx, note: PackageNote) => {
  const d = e.data;
  tx.del(keys.claim(e.project_id, d.submitted_by, d.work_package_id));
  const gate = { action: 'close_gate', reason: 'result_awaiting_gate', title: note.title } as const;
  tx.put(
    keys.gate(e.project_id, d.work_package_id),
    action(e, { ...gate, work_package_id: d.work_package_id, ready_to_accept: false }),
  );
  return { ...note, result_number: d.result_number };
};

const requested = (e: On<'review.requested'>, tx: ModelTx, note: PackageNote): PackageNote => {
  const { review_id, reviewer_id, work_package_id } = e.data;
  const fields = { action: 'submit_review', reason: 'review_assigned', title: note.title } as const;
  tx.put(
    keys.review(e.project_id, reviewer_id, review_id),
    action(e, { ...fields, work_package_id, review_id }),
  );
  return { ...note, pending_reviews: [...note.pending_reviews, { review_id, reviewer_id }] };
};

const reviewed = async (e: On<'review.submitted'>, tx: ModelTx, note: PackageNote) => {
  const d = e.data;
  tx.del(keys.review(e.project_id, d.reviewer_id, d.review_id));
  // independence was checked when the review was requested; the gate needs the latest result
  const gateKey = keys.gate(e.project_id, d.work_package_id);
  const gate = await tx.get<PendingAction>(gateKey);
  if (gate && d.verdict === 'APPROVE' && d.result_number === note.result_number)
    tx.put(gateKey, { ...gate, ready_to_accept: true });
  const pending_reviews = note.pending_reviews.filter((r) => r.review_id !== d.review_id);
  return { ...note, pending_reviews };
};

const gateClosed = (e: On<'gate.closed'>, tx: ModelTx, note: PackageNote): PackageNote => {
  const d = e.data;
  const wp = d.work_package_id;
  tx.del(keys.gate(e.project_id, wp));
  if (d.status === 'CLAIMED' && d.claimed_by)
    tx.put(keys.claim(e.project_id, d.claimed_by, wp), claimAction(e, wp, note.title));
  if (d.status === 'CLAIMED') return note;
  // a closed package asks nothing more of anyone
  if (d.claimed_by) tx.del(keys.claim(e.project_id, d.claimed_by, wp));
  for (const r of note.pending_reviews)
    tx.del(keys.review(e.project_id, r.reviewer_id, r.review_id));
  return { ...note, pending_reviews: [] };
};

/** Folds a package event into its note, writing the actions it opens and closes. */
const onPackage = async (
  e: Exclude<Event, On<'work_package.issued' | 'escalation.raised' | 'escalation.resolved'>>,
  tx: ModelTx,
  note: PackageNote,
): Promise<PackageNote> => {
  switch (e.type) {
    case 'work_package.claimed':
      return claimed(e, tx, note);
    case 'work_package.result_submitted':
      return submitted(e, tx, note);
    case 'review.requested':
      return requested(e, tx, note);
    case 'review.submitted':
      return reviewed(e, tx, note);
    case 'gate.closed':
      return gateClosed(e, tx, note);
  }
};

/**
 * What each member should do next (`list_pending_actions`): reviews assigned to them, claimed
 * work awaiting their result, and for PO/PM results awaiting the gate and open escalations.
 */
export const pendingActionsProjector = defineProjector({
  name: 'pending-actions',
  version: 1,
  events: EVENTS,
  async apply(event, tx) {
    switch (event.type) {
      case 'escalation.raised': {
        const d = event.data;
        const fields = {
          action: 'resolve_escalation',
          reason: 'escalation_open',
          title: d.subject,
        } as const;
        const { work_package_id, escalation_id } = d;
        return tx.put(
          keys.escalation(event.project_id, d.target_role, escalation_id),
          action(event, { ...fields, work_package_id, escalation_id }),
        );
      }
      case 'escalation.resolved':
        return tx.del(
          keys.escalation(event.project_id, event.data.target_role, event.data.escalation_id),
        );
      case 'work_package.issued': {
        const note: PackageNote = {
          title: event.data.title,
          claimed_by: null,
          result_number: 0,
          pending_reviews: [],
        };
        return tx.put(keys.note(event.project_id, event.data.work_package_id), note);
      }
      default: {
        const key = keys.note(event.project_id, event.data.work_package_id);
        const note = await tx.get<PackageNote>(key);
        if (note) tx.put(key, await onPackage(event, tx, note));
      }
    }
  },
});

const GATEKEEPERS: readonly string[] = ['PO', 'PM'];

/** Reads of the pending-actions read model, filtered by the caller's actor and role. */
export const pendingActionQueries = (models: ModelStore) => {
  const under = async (prefix: string) =>
    (await models.range<PendingAction>({ prefix: `pending-actions/${prefix}` })).map(([, a]) => a);
  return {
    async pendingActions(projectId: string, actorId: string, role: Role | 'SYSTEM') {
      const p = seg(projectId);
      const mine = [`reviewer/${p}/${seg(actorId)}/`, `claimant/${p}/${seg(actorId)}/`];
      const roleWide = GATEKEEPERS.includes(role)
        ? [`gate/${p}/`, `escalation/${p}/${role}/`, `escalation/${p}/ANY/`]
        : [];
      const actions = (await Promise.all([...mine, ...roleWide].map(under))).flat();
      return actions.sort(
        (a, b) => a.since.localeCompare(b.since) || a.action.localeCompare(b.action),
      );
    },
  };
};
