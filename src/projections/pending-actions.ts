import type {
  EscalationRaised,
  EscalationResolved,
  GateClosed,
  ReviewRequested,
  ReviewSubmitted,
  WorkPackageResultSubmitted,
} from '../events/catalog/governance.js';
import type { Role } from '../events/catalog/project.js';
import type { EventOf, LogEvent, ModelStore } from '../events/index.js';
import type { ModelTx, Projector } from './projector.js';

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

type Payload<D> = EventOf<D>['data'];
const seg = encodeURIComponent;
const keys = {
  note: (p: string, wp: string) => `pkg/${seg(p)}/${seg(wp)}`,
  review: (p: string, actor: string, rev: string) => `reviewer/${seg(p)}/${seg(actor)}/${seg(rev)}`,
  claim: (p: string, actor: string, wp: string) => `claimant/${seg(p)}/${seg(actor)}/${seg(wp)}`,
  gate: (p: string, wp: string) => `gate/${seg(p)}/${seg(wp)}`,
  escalation: (p: string, target: string | null, esc: string) =>
    `escalation/${seg(p)}/${target ?? 'ANY'}/${seg(esc)}`,
};

const action = (
  e: LogEvent,
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

const claimAction = (e: LogEvent, wp: string, title: string) =>
  action(e, {
    action: 'submit_result',
    reason: 'claimed_awaiting_result',
    work_package_id: wp,
    title,
  });

type Fold = (e: LogEvent, tx: ModelTx, note: PackageNote, wp: string) => Promise<PackageNote>;

const onPackage: Record<string, Fold> = {
  async 'work_package.claimed'(e, tx, note, wp) {
    const claimant = e.data.claimed_by as string;
    tx.put(keys.claim(e.project_id, claimant, wp), claimAction(e, wp, note.title));
    return { ...note, claimed_by: claimant };
  },
  async 'work_package.result_submitted'(e, tx, note, wp) {
    const d = e.data as Payload<typeof WorkPackageResultSubmitted>;
    tx.del(keys.claim(e.project_id, d.submitted_by, wp));
    const gate = {
      action: 'close_gate',
      reason: 'result_awaiting_gate',
      title: note.title,
    } as const;
    tx.put(
      keys.gate(e.project_id, wp),
      action(e, { ...gate, work_package_id: wp, ready_to_accept: false }),
    );
    return { ...note, result_number: d.result_number };
  },
  async 'review.requested'(e, tx, note, wp) {
    const { review_id, reviewer_id } = e.data as Payload<typeof ReviewRequested>;
    const fields = {
      action: 'submit_review',
      reason: 'review_assigned',
      title: note.title,
    } as const;
    tx.put(
      keys.review(e.project_id, reviewer_id, review_id),
      action(e, { ...fields, work_package_id: wp, review_id }),
    );
    return { ...note, pending_reviews: [...note.pending_reviews, { review_id, reviewer_id }] };
  },
  async 'review.submitted'(e, tx, note, wp) {
    const d = e.data as Payload<typeof ReviewSubmitted>;
    tx.del(keys.review(e.project_id, d.reviewer_id, d.review_id));
    // independence was checked when the review was requested; the gate needs the latest result
    const gate = await tx.get<PendingAction>(keys.gate(e.project_id, wp));
    if (gate && d.verdict === 'APPROVE' && d.result_number === note.result_number)
      tx.put(keys.gate(e.project_id, wp), { ...gate, ready_to_accept: true });
    const pending_reviews = note.pending_reviews.filter((r) => r.review_id !== d.review_id);
    return { ...note, pending_reviews };
  },
  async 'gate.closed'(e, tx, note, wp) {
    const d = e.data as Payload<typeof GateClosed>;
    tx.del(keys.gate(e.project_id, wp));
    if (d.status === 'CLAIMED' && d.claimed_by)
      tx.put(keys.claim(e.project_id, d.claimed_by, wp), claimAction(e, wp, note.title));
    if (d.status === 'CLAIMED') return note;
    // a closed package asks nothing more of anyone
    if (d.claimed_by) tx.del(keys.claim(e.project_id, d.claimed_by, wp));
    for (const r of note.pending_reviews)
      tx.del(keys.review(e.project_id, r.reviewer_id, r.review_id));
    return { ...note, pending_reviews: [] };
  },
};

const escalations: Record<string, (e: LogEvent, tx: ModelTx) => void> = {
  'escalation.raised'(e, tx) {
    const d = e.data as Payload<typeof EscalationRaised>;
    const fields = {
      action: 'resolve_escalation',
      reason: 'escalation_open',
      title: d.subject,
    } as const;
    tx.put(
      keys.escalation(e.project_id, d.target_role, d.escalation_id),
      action(e, { ...fields, work_package_id: d.work_package_id, escalation_id: d.escalation_id }),
    );
  },
  'escalation.resolved'(e, tx) {
    const d = e.data as Payload<typeof EscalationResolved>;
    tx.del(keys.escalation(e.project_id, d.target_role, d.escalation_id));
  },
};

/**
 * What each member should do next (`list_pending_actions`): reviews assigned to them, claimed
 * work awaiting their result, and for PO/PM results awaiting the gate and open escalations.
 */
export const pendingActionsProjector: Projector = {
  name: 'pending-actions',
  version: 1,
  handles: ['work_package.issued', ...Object.keys(onPackage), ...Object.keys(escalations)],
  async apply(event, tx) {
    const escalation = escalations[event.type];
    if (escalation) return escalation(event, tx);
    const wp = event.data.work_package_id as string;
    const key = keys.note(event.project_id, wp);
    if (event.type === 'work_package.issued') {
      const title = event.data.title as string;
      return tx.put(key, { title, claimed_by: null, result_number: 0, pending_reviews: [] });
    }
    const note = await tx.get<PackageNote>(key);
    if (note) tx.put(key, await onPackage[event.type]!(event, tx, note, wp));
  },
};

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
