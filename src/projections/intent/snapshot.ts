import {
  claimSubject,
  intentEvents,
  intentRef,
  type ClaimBody,
} from '../../events/intent/index.js';
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
 * capped snapshot itself is built from them at read time (intent/snapshot-view.ts), because
 * staleness depends on `now`. Deleted claims and tasks leave no value behind. Beside the
 * claims, each active direct user statement has a small value of its own (sealed as its claim
 * is), and the head counts the active claims: a SessionStart Hook reads those, not every claim.
 */
export const INTENT_SNAPSHOT = 'intent.snapshot';

// A claim's keys end in its ref (intentRef), never its id: a key outlives its value in LevelDB's
// files (old tables, the write-ahead log, a table's bounds in the MANIFEST), and a deleted
// claim's id must be in none of them. `r` below is always a claim's ref.
// A task's keys end in its ref too (`t` below is a task's ref, `r` a claim's): its id is only
// in its head's value, sealed under the task's subject, so shredded with the task.
const taskKey = (p: string, t: string) => modelKey('task', p, t);
/** A deleted task's marker, unsealed (its head is gone with its key): its owner, no id. */
const deletedKey = (p: string, t: string) => modelKey('deleted', p, t);
const claimPrefix = (p: string, t: string) => modelKeyPrefix('claim', p, t);
const claimKey = (p: string, t: string, r: string) => modelKey('claim', p, t, r);
/** An active claim's marker: refs only, unsealed, so a claim shredded before its tombstone is
 * folded still tells whether it was active, live and in a replay alike. */
const activeKey = (p: string, t: string, r: string) => modelKey('active', p, t, r);
const directPrefix = (p: string, t: string) => modelKeyPrefix('direct', p, t);
const directKey = (p: string, t: string, r: string) => modelKey('direct', p, t, r);
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
  /** the host session feeding the task now: its start's, or the last one associated */
  host_session_hash: string | null;
  /** the log position that session was bound at: of two tasks a session named, the later wins */
  associated_position: number;
  /** claims whose life is active */
  active: number;
  /**
   * The task stream's version this head is at: the last event of the task folded. A reader's
   * copy of the claims at an older version reads the task's events since (the claims they name)
   * rather than every claim. Every event moves it; a shredded one (its claim deleted) is always
   * followed by its tombstone, so a replay after the shred ends at the same version.
   */
  version: number;
  /** set by a recovery flag (post-compact), null once served; absent on a task never flagged */
  recovery?: RecoveryFlag | null;
  /** the subject the head is sealed under; absent for a task written before (unsealed) */
  subject?: string;
  /** a deleted task's ref, in place of its id (`task_id` is empty then) */
  task_ref?: string;
};

/**
 * A claim's value as stored: with the subject its events were sealed under (a claim written
 * before refs keeps its legacy subject, whose key is the one that exists).
 */
type StoredClaim = ClaimView & { subject?: string };
type DeletedMarker = { owner: string };

/** A claim's value holds its statement: sealed under the claim's subject, shredded with it. */
const putClaim = (tx: ModelTx, key: string, view: StoredClaim) =>
  tx.put(key, view, { seal: view.subject ?? claimSubject(view.body.claim_id) });

/** The head holds the task's id: sealed under the task's subject (a legacy task's: in clear). */
const putHead = (tx: ModelTx, p: string, t: string, head: Head) =>
  head.subject === undefined
    ? tx.put(taskKey(p, t), head)
    : tx.put(taskKey(p, t), head, { seal: head.subject });

const updateHead = async (tx: ModelTx, p: string, t: string, change: (h: Head) => Head) => {
  const head = await tx.get<Head>(taskKey(p, t));
  if (head) putHead(tx, p, t, change(head));
};

/**
 * Takes a claim out of the active ones (superseded, invalidated, deleted): its direct
 * statement goes, and the head's count drops. True when it was active.
 */
const leaveActive = async (tx: ModelTx, p: string, t: string, r: string): Promise<boolean> => {
  if ((await tx.get<true>(activeKey(p, t, r))) === undefined) return false;
  tx.del(activeKey(p, t, r));
  tx.del(directKey(p, t, r));
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
  const r = intentRef(id);
  if (change.life !== undefined && change.life !== 'active') await leaveActive(tx, p, t, r);
  const claim = await tx.get<StoredClaim>(claimKey(p, t, r));
  if (claim) putClaim(tx, claimKey(p, t, r), { ...claim, ...change });
};

type IntentLogEvent = LogEventOf<(typeof intentEvents)[number]>;

const apply = async (e: IntentLogEvent, tx: ModelTx): Promise<void> => {
  // a deleted claim's events read as shredded, with empty data: nothing of it is kept
  if (e.shredded) return;
  const p = e.data.project_id;
  const t = 'task_ref' in e.data ? e.data.task_ref : intentRef(e.data.task_id);
  await fold(e, tx, p, t);
  if (e.type !== 'intent.task_deleted')
    await updateHead(tx, p, t, (h) => ({ ...h, version: e.stream_version }));
};

const fold = async (e: IntentLogEvent, tx: ModelTx, p: string, t: string): Promise<void> => {
  switch (e.type) {
    case 'intent.task_started':
      putHead(tx, p, t, {
        ...(e.seal === undefined ? {} : { subject: e.seal }),
        project_id: p,
        task_id: e.data.task_id,
        owner: e.actor_id,
        mode: 'on',
        host_session_hash: e.data.host_session_hash,
        associated_position: e.global_position,
        deleted: false,
        started_at: e.data.started_at,
        candidate_count: 0,
        imports: 0,
        active: 0,
        version: e.stream_version,
      });
      return;
    case 'intent.session_associated': {
      const { host_session_hash } = e.data;
      return updateHead(tx, p, t, (h) => ({
        ...h,
        host_session_hash,
        associated_position: e.global_position,
      }));
    }
    case 'intent.claim_added': {
      const { claim } = e.data;
      const head = await tx.get<Head>(taskKey(p, t));
      if (!head) return;
      const r = intentRef(claim.claim_id);
      const subject = e.seal ?? claimSubject(claim.claim_id);
      putHead(tx, p, t, { ...head, active: head.active + 1 });
      tx.put(activeKey(p, t, r), true);
      if (isDirect(claim))
        tx.put(
          directKey(p, t, r),
          { statement: claim.statement, seq: e.stream_version } satisfies DirectStatement,
          { seal: subject },
        );
      putClaim(tx, claimKey(p, t, r), {
        subject,
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
      return updateClaim(tx, p, t, e.data.claim_id, { life: 'invalidated' });
    case 'intent.claim_promoted':
      return updateClaim(tx, p, t, e.data.claim_id, { promoted: true });
    case 'intent.claim_deleted':
      await leaveActive(tx, p, t, e.data.claim_ref);
      tx.del(claimKey(p, t, e.data.claim_ref));
      return;
    case 'intent.task_deleted':
      for (const r of e.data.claim_refs) {
        tx.del(claimKey(p, t, r));
        tx.del(activeKey(p, t, r));
        tx.del(directKey(p, t, r));
      }
      for (const id of e.data.candidate_ids) tx.del(candidateKey(p, t, id));
      {
        // the head (with the id) goes; the marker keeps who may learn the task is deleted (a
        // replay after the shred never saw the head: the deleter is its owner or SYSTEM)
        const head = await tx.get<Head>(taskKey(p, t));
        const marker: DeletedMarker = { owner: head?.owner ?? e.actor_id };
        tx.del(taskKey(p, t));
        tx.put(deletedKey(p, t), marker);
      }
      return;
    case 'intent.mode_set':
      return updateHead(tx, p, t, (h) => ({ ...h, mode: e.data.mode }));
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
  // 2: direct statements and the active count (SessionStart's summary); 3: the task's owner;
  // 4: a session associated after the start (the head's session and its position); 5: claims
  // keyed by ref, never by id (issue 33); 6: tasks keyed by ref, the head sealed under the task;
  // 7: the head's stream `version` (readers bring their copy of the claims up from it, issue 39)
  version: 7,
  events: intentEvents,
  apply,
});

const prefix = modelPrefix(INTENT_SNAPSHOT);

/** Reads of the snapshot model: a task's head and its claims in the order they were added. */
export const intentSnapshotQueries = (models: ModelStore) => {
  /** Every claim of the task with its ref, in no particular order. */
  const claimRows = async (p: string, t: string): Promise<[string, ClaimView][]> => {
    const rows = await models.range<StoredClaim>({ prefix: prefix + claimPrefix(p, intentRef(t)) });
    return rows.map(([key, row]) => [
      key.slice(key.lastIndexOf('/') + 1),
      withoutClaimSubject(row),
    ]);
  };
  return {
    /** `t` is the task's id, the caller's: a deleted task answers a head with only its owner. */
    async head(p: string, t: string): Promise<Head | undefined> {
      const r = intentRef(t);
      const head = await models.get<Head>(prefix + taskKey(p, r));
      if (head) return withoutSubject(head);
      const gone = await models.get<DeletedMarker>(prefix + deletedKey(p, r));
      return gone && { ...deletedHead(p, t), task_ref: r, owner: gone.owner };
    },
    async claims(p: string, t: string): Promise<ClaimView[]> {
      const rows = await claimRows(p, t);
      return rows.map(([, view]) => view).sort((a, b) => a.seq - b.seq);
    },
    claimRows,
    /** Claims by ref, as stored (a deleted or shredded one: undefined). */
    async claimsByRef(p: string, t: string, refs: readonly string[]) {
      const r = intentRef(t);
      const rows = await models.getMany<StoredClaim>(refs.map((c) => prefix + claimKey(p, r, c)));
      return rows.map((row) => row && withoutClaimSubject(row));
    },
    /** The task's active direct user statements, in the order they were added. */
    async direct(p: string, t: string): Promise<DirectStatement[]> {
      const rows = await models.range<DirectStatement>({
        prefix: prefix + directPrefix(p, intentRef(t)),
      });
      return rows.map(([, v]) => v).sort((a, b) => a.seq - b.seq);
    },
    async candidates(p: string, t: string): Promise<CandidateView[]> {
      const rows = await models.range<CandidateView>({
        prefix: prefix + candidatePrefix(p, intentRef(t)),
      });
      return rows.map(([, v]) => v);
    },
    /** Every task of a project that has a head (for Hooks: same-project context only). */
    async tasks(p: string): Promise<Head[]> {
      const rows = await models.range<Head>({ prefix: prefix + modelKeyPrefix('task', p) });
      const gone = await models.range<DeletedMarker>({
        prefix: prefix + modelKeyPrefix('deleted', p),
      });
      // a deleted task is known by its ref only: its id left the disk with it
      const deleted = gone.map(([k, { owner }]) => ({
        ...deletedHead(p, ''),
        task_ref: k.slice(k.lastIndexOf('/') + 1),
        owner,
      }));
      return [...rows.map(([, head]) => withoutSubject(head)), ...deleted];
    },
  };
};

const withoutSubject = ({ subject: _s, ...head }: Head): Head => head;
const withoutClaimSubject = ({ subject: _s, ...view }: StoredClaim): ClaimView => view;

const deletedHead = (p: string, t: string): Head => ({
  project_id: p,
  task_id: t,
  owner: '',
  mode: 'off',
  deleted: true,
  host_session_hash: null,
  associated_position: 0,
  started_at: '',
  candidate_count: 0,
  imports: 0,
  active: 0,
  version: 0,
});

export type IntentTaskHead = Head;
