import { claimSubject, intentEvents, type ClaimBody } from '../../events/intent/index.js';
import type { ModelStore } from '../../events/index.js';
import {
  defineProjector,
  modelKey,
  modelKeyPrefix,
  modelPrefix,
  type LogEventOf,
  type ModelTx,
} from '../projector.js';
import type { RecoveryFlag } from '../../commands/intent/task-state.js';
import type { ClaimView, TaskHead } from './snapshot-view.js';

/**
 * The intent snapshot read model: per task a head (mode, counts) and one value per claim; the
 * capped snapshot itself is built from them at read time (intent-snapshot-view.ts), because
 * staleness depends on `now`. Deleted claims and tasks leave no value behind. Beside the
 * claims, each active direct user statement has a small value of its own (sealed as its claim
 * is), and the head counts the active claims: a SessionStart Hook reads those, not every claim.
 */
export const INTENT_SNAPSHOT = 'intent.snapshot';

const taskKey = (p: string, t: string) => modelKey('task', p, t);
const claimPrefix = (p: string, t: string) => modelKeyPrefix('claim', p, t);
const claimKey = (p: string, t: string, c: string) => modelKey('claim', p, t, c);
/** An active claim's marker: ids only, unsealed, so a claim shredded before its tombstone is
 * folded still tells whether it was active, live and in a replay alike. */
const activeKey = (p: string, t: string, c: string) => modelKey('active', p, t, c);
const directPrefix = (p: string, t: string) => modelKeyPrefix('direct', p, t);
const directKey = (p: string, t: string, c: string) => modelKey('direct', p, t, c);
const candidatePrefix = (p: string, t: string) => modelKeyPrefix('candidate', p, t);
const candidateKey = (p: string, t: string, c: string) => modelKey('candidate', p, t, c);

/** A Hook/result/history candidate as listed: metadata only. */
export type CandidateView = {
  candidate_id: string;
  origin: 'hook' | 'result' | 'history';
  hook_event: string | null;
  event_id: string | null;
  sha256: string;
  recorded_at: string;
};

/** An active claim that the user said directly: what SessionStart injects as text. */
export type DirectStatement = { statement: string; seq: number };

const isDirect = (body: ClaimBody): boolean =>
  body.epistemic_status === 'explicit' &&
  body.basis === 'direct_statement' &&
  body.source_ref.kind === 'user_event';

type Head = TaskHead & {
  /** who started the task and owns it: the start event's envelope actor_id */
  owner: string;
  host_session_hash: string | null;
  /** claims whose life is active */
  active: number;
  /**
   * The log position of the last event that changed the task's claims, mode or existence: the
   * key its cached claims are kept by. A candidate or an import record changes no claim (an
   * import's claims come as their own events), so a Hook's candidate per prompt leaves the
   * cache of a 5,000-claim task good.
   */
  last_position: number;
  /** set by a recovery flag (post-compact), null once served; absent on a task never flagged */
  recovery?: RecoveryFlag | null;
};

/** A claim's value holds its statement: sealed under the claim's subject, shredded with it. */
const putClaim = (tx: ModelTx, key: string, view: ClaimView) =>
  tx.put(key, view, { seal: claimSubject(view.body.claim_id) });

const updateHead = async (tx: ModelTx, p: string, t: string, change: (h: Head) => Head) => {
  const head = await tx.get<Head>(taskKey(p, t));
  if (head) tx.put(taskKey(p, t), change(head));
};

/**
 * Takes a claim out of the active ones (superseded, invalidated, deleted): its direct
 * statement goes, and the head's count drops. True when it was active.
 */
const leaveActive = async (tx: ModelTx, p: string, t: string, id: string): Promise<boolean> => {
  if ((await tx.get<true>(activeKey(p, t, id))) === undefined) return false;
  tx.del(activeKey(p, t, id));
  tx.del(directKey(p, t, id));
  await updateHead(tx, p, t, (h) => ({ ...h, active: h.active - 1 }));
  return true;
};

const updateClaim = async (
  tx: ModelTx,
  p: string,
  t: string,
  id: string,
  change: Partial<ClaimView>,
) => {
  if (change.life !== undefined && change.life !== 'active') await leaveActive(tx, p, t, id);
  const claim = await tx.get<ClaimView>(claimKey(p, t, id));
  if (claim) putClaim(tx, claimKey(p, t, id), { ...claim, ...change });
};

type IntentLogEvent = LogEventOf<(typeof intentEvents)[number]>;

const apply = async (e: IntentLogEvent, tx: ModelTx): Promise<void> => {
  // a deleted claim's events read as shredded, with empty data: nothing of it is kept
  if (e.shredded) return;
  const { project_id: p, task_id: t } = e.data;
  const touch = (h: Head): Head => ({ ...h, last_position: e.global_position });
  // candidates, import records and recovery flags are metadata beside the claims: they leave
  // `last_position` (the cached claims' key) where it is
  switch (e.type) {
    case 'intent.task_started':
      tx.put(taskKey(p, t), {
        project_id: p,
        task_id: t,
        owner: e.actor_id,
        mode: 'on',
        host_session_hash: e.data.host_session_hash,
        deleted: false,
        started_at: e.data.started_at,
        candidate_count: 0,
        imports: 0,
        active: 0,
        last_position: e.global_position,
      } satisfies Head);
      return;
    case 'intent.claim_added': {
      const { claim } = e.data;
      const head = await tx.get<Head>(taskKey(p, t));
      if (!head) return;
      tx.put(taskKey(p, t), touch({ ...head, active: head.active + 1 }));
      tx.put(activeKey(p, t, claim.claim_id), true);
      if (isDirect(claim))
        tx.put(
          directKey(p, t, claim.claim_id),
          { statement: claim.statement, seq: e.stream_version } satisfies DirectStatement,
          { seal: claimSubject(claim.claim_id) },
        );
      putClaim(tx, claimKey(p, t, claim.claim_id), {
        body: claim,
        life: 'active',
        superseded_by: null,
        promoted: false,
        // the stream version orders claims the same live and replayed (a shredded one included)
        seq: e.stream_version,
      });
      for (const old of claim.supersedes)
        await updateClaim(tx, p, t, old, { life: 'superseded', superseded_by: claim.claim_id });
      return;
    }
    case 'intent.claim_invalidated':
      await updateClaim(tx, p, t, e.data.claim_id, { life: 'invalidated' });
      return updateHead(tx, p, t, touch);
    case 'intent.claim_promoted':
      await updateClaim(tx, p, t, e.data.claim_id, { promoted: true });
      return updateHead(tx, p, t, touch);
    case 'intent.claim_deleted':
      await leaveActive(tx, p, t, e.data.claim_id);
      tx.del(claimKey(p, t, e.data.claim_id));
      return updateHead(tx, p, t, touch);
    case 'intent.task_deleted':
      for (const id of e.data.claim_ids) {
        tx.del(claimKey(p, t, id));
        tx.del(activeKey(p, t, id));
        tx.del(directKey(p, t, id));
      }
      for (const id of e.data.candidate_ids) tx.del(candidateKey(p, t, id));
      return updateHead(tx, p, t, (h) =>
        touch({ ...h, deleted: true, candidate_count: 0, active: 0 }),
      );
    case 'intent.mode_set':
      return updateHead(tx, p, t, (h) => touch({ ...h, mode: e.data.mode }));
    case 'intent.candidate_recorded': {
      const { project_id: _p, task_id: _t, ...candidate } = e.data;
      tx.put(candidateKey(p, t, candidate.candidate_id), candidate satisfies CandidateView);
      return updateHead(tx, p, t, (h) => ({ ...h, candidate_count: h.candidate_count + 1 }));
    }
    case 'intent.import_recorded':
      return updateHead(tx, p, t, (h) => ({ ...h, imports: h.imports + 1 }));
    case 'intent.recovery_flagged': {
      const recovery = { state: e.data.state, flagged_at: e.data.flagged_at };
      return updateHead(tx, p, t, (h) => ({ ...h, recovery }));
    }
    case 'intent.recovery_served':
      return updateHead(tx, p, t, (h) => ({ ...h, recovery: null }));
  }
};

export const intentSnapshotProjector = defineProjector({
  name: INTENT_SNAPSHOT,
  // 2: direct statements and the active count (SessionStart's summary); 3: the task's owner
  version: 3,
  events: intentEvents,
  apply,
});

const prefix = modelPrefix(INTENT_SNAPSHOT);

/** Reads of the snapshot model: a task's head and its claims in the order they were added. */
export const intentSnapshotQueries = (models: ModelStore) => ({
  head: (p: string, t: string) => models.get<Head>(prefix + taskKey(p, t)),
  async claims(p: string, t: string): Promise<ClaimView[]> {
    const rows = await models.range<ClaimView>({ prefix: prefix + claimPrefix(p, t) });
    return rows.map(([, v]) => v).sort((a, b) => a.seq - b.seq);
  },
  /** The task's active direct user statements, in the order they were added. */
  async direct(p: string, t: string): Promise<DirectStatement[]> {
    const rows = await models.range<DirectStatement>({ prefix: prefix + directPrefix(p, t) });
    return rows.map(([, v]) => v).sort((a, b) => a.seq - b.seq);
  },
  async candidates(p: string, t: string): Promise<CandidateView[]> {
    const rows = await models.range<CandidateView>({ prefix: prefix + candidatePrefix(p, t) });
    return rows.map(([, v]) => v);
  },
  /** Every task of a project that has a head (for Hooks: same-project context only). */
  async tasks(p: string): Promise<Head[]> {
    const rows = await models.range<Head>({ prefix: prefix + modelKeyPrefix('task', p) });
    return rows.map(([, v]) => v);
  },
});

export type IntentTaskHead = Head;
