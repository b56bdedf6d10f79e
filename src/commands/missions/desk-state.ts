import type { ContractBody, EvidenceItem, LaneStatus } from '../../events/missions/index.js';
import type { DeskEvent, DeskEventOf } from './desk-events.js';
import { PersistentMap } from '../persistent-map.js';
import { evolveLearning, type Learning } from './learning.js';
import { Snapshots } from '../snapshots.js';

/**
 * The state of one project's missions desk, folded from its one stream. Every invariant two
 * concurrent calls could break (one active mission, lease capacity, two ACTIVE lanes,
 * single-use owner codes) is decided against this state, so the expected version enforces it.
 *
 * Shaped so an event costs the same on a desk of 20 leases and of 1,500 (issue 39): what grows
 * by id is a PersistentMap (a new version per event in O(1), no copy), a list is a map by its
 * index, and what a rule looks up is an index the fold keeps (`unrevoked` for lease capacity,
 * `challengeIds` for a challenge named by its id) instead of a scan of the history.
 */
export type Mission = {
  mission_id: string;
  status: 'active' | 'completed' | 'abandoned';
  contract_version: number;
  contract: ContractBody;
  contract_hash: string;
  opened_at: string;
  closed_at: string | null;
  outcome_summary: string | null;
  evidence: Record<string, EvidenceItem>;
};

/** What a session asks a lease for, and what the lease then holds of it. */
export type LeaseTerms = {
  mission_id: string;
  contract_version: number;
  agent_identity: string;
  role: string;
  contribution: string;
  expected_result: string;
  criterion_ids: string[];
};

export type Lease = LeaseTerms & {
  session_id: string;
  capabilities: string[];
  device_id: string | null;
  harness_id: string | null;
  granted_at: string;
  expires_at: string;
  revoked: 'recontract' | 'close' | 'stop' | null;
};

export type Challenge = {
  challenge_id: string;
  operation: string;
  fingerprint: string;
  code_salt: string;
  code_hash: string;
  channel: string;
  expires_at: string;
  attempts_remaining: number;
  status: 'pending' | 'consumed' | 'cancelled';
};

export type Checkpoint = Omit<DeskEventOf<'mission_checkpoint.recorded'>['data'], 'project_id'>;

export type Lane = { focus_id: string; label: string | null; status: LaneStatus };
export type InboxItem = { item_id: string; text: string; tags: string[]; source: string | null };
export type ParkedItem = { item_id: string; mission_id: string; idea: string; rationale: string };
export type Stop = { day: string; stopped_at: string };

/** A list that only grows: its items by index (0, 1, …), so an append copies nothing. */
export type DeskList<T> = PersistentMap<number, T>;

export type Desk = {
  project_id: string;
  missions: PersistentMap<string, Mission>;
  active_mission_id: string | null;
  leases: PersistentMap<string, Lease>;
  /** index: the leases not revoked, session id → mission id (what capacity counts) */
  unrevoked: PersistentMap<string, string>;
  lanes: PersistentMap<string, Lane>;
  focus_id: string | null;
  inbox: DeskList<InboxItem>;
  parked: DeskList<ParkedItem>;
  intakes: PersistentMap<string, { raw: string; distilled: boolean }>;
  checkpoints: DeskList<Checkpoint>;
  proposal: { content: string; content_hash: string } | null;
  next_step: { content: string; content_hash: string; accepted_at: string } | null;
  /** by fingerprint of the change they guard */
  challenges: PersistentMap<string, Challenge>;
  /** index: a challenge's id → the fingerprint it is kept under */
  challengeIds: PersistentMap<string, string>;
  stops: DeskList<Stop>;
  /** learning blocks by id (learning.ts) */
  learning: Learning;
};

export const initialDesk = (): Desk => ({
  project_id: '',
  missions: PersistentMap.empty(),
  active_mission_id: null,
  leases: PersistentMap.empty(),
  unrevoked: PersistentMap.empty(),
  lanes: PersistentMap.empty(),
  focus_id: null,
  inbox: PersistentMap.empty(),
  parked: PersistentMap.empty(),
  intakes: PersistentMap.empty(),
  checkpoints: PersistentMap.empty(),
  proposal: null,
  next_step: null,
  challenges: PersistentMap.empty(),
  challengeIds: PersistentMap.empty(),
  stops: PersistentMap.empty(),
  learning: {},
});

/** The list with `item` appended. */
export const append = <T>(list: DeskList<T>, item: T): DeskList<T> => list.with(list.size, item);
/** Its items, first to last. */
export const itemsOf = <T>(list: DeskList<T>): T[] => [...list.values()];
export const lastOf = <T>(list: DeskList<T>): T | undefined => list.get(list.size - 1);

const withMission = (desk: Desk, id: string, change: Partial<Mission>): Desk => {
  const mission = desk.missions.get(id);
  return mission ? { ...desk, missions: desk.missions.with(id, { ...mission, ...change }) } : desk;
};

/** The challenge with this id, unless a later one for the same change took its place. */
export const challengeById = (desk: Desk, id: string): Challenge | undefined => {
  const fingerprint = desk.challengeIds.get(id);
  const challenge = fingerprint === undefined ? undefined : desk.challenges.get(fingerprint);
  return challenge?.challenge_id === id ? challenge : undefined;
};

const withChallenge = (desk: Desk, id: string, change: Partial<Challenge>): Desk => {
  const entry = challengeById(desk, id);
  if (!entry) return desk;
  return { ...desk, challenges: desk.challenges.with(entry.fingerprint, { ...entry, ...change }) };
};

const revoke = (desk: Desk, ids: readonly string[], reason: Lease['revoked']): Desk => {
  let { leases, unrevoked } = desk;
  for (const id of ids) {
    const lease = leases.get(id);
    if (!lease) continue;
    leases = leases.with(id, { ...lease, revoked: reason });
    unrevoked = unrevoked.with(id, undefined);
  }
  return { ...desk, leases, unrevoked };
};

const evolveMission = (desk: Desk, event: DeskEvent): Desk | undefined => {
  switch (event.type) {
    case 'mission.opened': {
      const { mission_id, contract, contract_hash, opened_at } = event.data;
      const mission: Mission = {
        mission_id,
        status: 'active',
        contract_version: 1,
        contract,
        contract_hash,
        opened_at,
        closed_at: null,
        outcome_summary: null,
        evidence: {},
      };
      return {
        ...desk,
        missions: desk.missions.with(mission_id, mission),
        active_mission_id: mission_id,
      };
    }
    case 'mission.recontracted': {
      const { mission_id, contract, contract_hash, contract_version } = event.data;
      return withMission(desk, mission_id, { contract, contract_hash, contract_version });
    }
    case 'mission.closed': {
      const { mission_id, closure, closed_at, outcome_summary, evidence } = event.data;
      const closed = withMission(desk, mission_id, {
        status: closure,
        closed_at,
        outcome_summary,
        evidence,
      });
      return {
        ...closed,
        active_mission_id:
          closed.active_mission_id === mission_id ? null : closed.active_mission_id,
      };
    }
    case 'lease.granted': {
      const { project_id: _p, ...lease } = event.data;
      return {
        ...desk,
        leases: desk.leases.with(lease.session_id, { ...lease, revoked: null }),
        unrevoked: desk.unrevoked.with(lease.session_id, lease.mission_id),
      };
    }
    case 'lease.revoked':
      return revoke(desk, event.data.session_ids, event.data.reason);
    default:
      return undefined;
  }
};

const evolveGate = (desk: Desk, event: DeskEvent): Desk | undefined => {
  switch (event.type) {
    case 'owner_challenge.issued': {
      const { project_id: _p, ...c } = event.data;
      return {
        ...desk,
        challenges: desk.challenges.with(c.fingerprint, {
          ...c,
          attempts_remaining: 3,
          status: 'pending',
        }),
        // the index names the challenges the desk holds: one replaced leaves it
        challengeIds: desk.challengeIds
          .with(desk.challenges.get(c.fingerprint)?.challenge_id ?? c.challenge_id, undefined)
          .with(c.challenge_id, c.fingerprint),
      };
    }
    case 'owner_challenge.code_rejected':
      return withChallenge(desk, event.data.challenge_id, {
        attempts_remaining: event.data.attempts_remaining,
      });
    case 'owner_challenge.cancelled':
      return withChallenge(desk, event.data.challenge_id, { status: 'cancelled' });
    case 'owner_challenge.consumed':
      return withChallenge(desk, event.data.challenge_id, { status: 'consumed' });
    case 'next_step.proposed':
      return {
        ...desk,
        proposal: { content: event.data.content, content_hash: event.data.content_hash },
      };
    case 'next_step.accepted': {
      const { content, content_hash, accepted_at } = event.data;
      const proposal = desk.proposal?.content_hash === content_hash ? null : desk.proposal;
      return { ...desk, proposal, next_step: { content, content_hash, accepted_at } };
    }
    default:
      return undefined;
  }
};

const evolveDay = (desk: Desk, event: DeskEvent): Desk => {
  switch (event.type) {
    case 'focus_lane.set': {
      const { focus_id, label, status } = event.data;
      const focus =
        status === 'ACTIVE' ? focus_id : desk.focus_id === focus_id ? null : desk.focus_id;
      return {
        ...desk,
        lanes: desk.lanes.with(focus_id, { focus_id, label, status }),
        focus_id: focus,
      };
    }
    case 'inbox_item.parked': {
      const { item_id, text, tags, source } = event.data;
      return { ...desk, inbox: append(desk.inbox, { item_id, text, tags, source }) };
    }
    case 'mission_item.parked': {
      const { item_id, mission_id, idea, rationale } = event.data;
      return { ...desk, parked: append(desk.parked, { item_id, mission_id, idea, rationale }) };
    }
    case 'intake.captured':
      return {
        ...desk,
        intakes: desk.intakes.with(event.data.intake_id, { raw: event.data.raw, distilled: false }),
      };
    case 'intake.distilled': {
      const intake = desk.intakes.get(event.data.intake_id);
      if (!intake) return desk;
      return {
        ...desk,
        intakes: desk.intakes.with(event.data.intake_id, { ...intake, distilled: true }),
      };
    }
    case 'mission_checkpoint.recorded': {
      const { project_id: _p, ...checkpoint } = event.data;
      return { ...desk, checkpoints: append(desk.checkpoints, checkpoint) };
    }
    case 'day.stopped': {
      const { day, stopped_at } = event.data;
      return { ...desk, stops: append(desk.stops, { day, stopped_at }) };
    }
    default:
      return desk;
  }
};

export const evolveDesk = (state: Desk, event: DeskEvent): Desk => {
  const desk = state.project_id ? state : { ...state, project_id: event.data.project_id };
  const learning = evolveLearning(desk.learning, event);
  if (learning) return { ...desk, learning };
  return evolveMission(desk, event) ?? evolveGate(desk, event) ?? evolveDay(desk, event);
};

/** Leases of a mission granted and not revoked, in the order they were granted. */
export const unrevokedLeases = (desk: Desk, missionId: string): Lease[] => {
  const out: Lease[] = [];
  for (const [session, mission] of desk.unrevoked)
    if (mission === missionId) out.push(desk.leases.get(session)!);
  return out;
};

/**
 * Leases that count against capacity at `now`: granted, not revoked, not expired. Read from the
 * unrevoked index: a stop, recontract or close revokes, so it holds the live few, not history.
 */
export const liveLeases = (desk: Desk, missionId: string, now: string): Lease[] =>
  unrevokedLeases(desk, missionId).filter((l) => l.expires_at > now);

export const activeLanes = (desk: Desk): string[] =>
  [...desk.lanes.values()].filter((l) => l.status === 'ACTIVE').map((l) => l.focus_id);

// Snapshots of a project's desk (src/commands/snapshots.ts): bump `version` whenever evolveDesk
// or the state's shape changes, so snapshots of the old fold are ignored and streams folded
// again. 2: the desk in maps keyed by id, with its indexes.
Snapshots.declare({
  name: 'missions.desk',
  version: 2,
  evolve: evolveDesk,
  initialState: initialDesk,
});
