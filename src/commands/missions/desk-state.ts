import type { ContractBody, EvidenceItem, LaneStatus } from '../../events/missions/index.js';
import type { DeskEvent, DeskEventOf } from './desk-events.js';
import { own, setOwn } from '../../events/own.js';
import { evolveLearning, type Learning } from './learning.js';
import { Snapshots } from '../snapshots.js';

/**
 * The state of one project's missions desk, folded from its one stream. Every invariant two
 * concurrent calls could break (one active mission, lease capacity, two ACTIVE lanes,
 * single-use owner codes) is decided against this state, so the expected version enforces it.
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

export type Desk = {
  project_id: string;
  missions: Record<string, Mission>;
  active_mission_id: string | null;
  leases: Record<string, Lease>;
  lanes: Record<string, { focus_id: string; label: string | null; status: LaneStatus }>;
  focus_id: string | null;
  inbox: { item_id: string; text: string; tags: string[]; source: string | null }[];
  parked: { item_id: string; mission_id: string; idea: string; rationale: string }[];
  intakes: Record<string, { raw: string; distilled: boolean }>;
  checkpoints: Checkpoint[];
  proposal: { content: string; content_hash: string } | null;
  next_step: { content: string; content_hash: string; accepted_at: string } | null;
  /** by fingerprint of the change they guard */
  challenges: Record<string, Challenge>;
  stops: { day: string; stopped_at: string }[];
  /** learning blocks by id (learning.ts) */
  learning: Learning;
};

export const initialDesk = (): Desk => ({
  project_id: '',
  missions: {},
  active_mission_id: null,
  leases: {},
  lanes: {},
  focus_id: null,
  inbox: [],
  parked: [],
  intakes: {},
  checkpoints: [],
  proposal: null,
  next_step: null,
  challenges: {},
  stops: [],
  learning: {},
});

const withMission = (desk: Desk, id: string, change: Partial<Mission>): Desk => {
  const mission = own(desk.missions, id);
  return mission
    ? { ...desk, missions: { ...desk.missions, [id]: { ...mission, ...change } } }
    : desk;
};

const withChallenge = (desk: Desk, id: string, change: Partial<Challenge>): Desk => {
  const entry = Object.values(desk.challenges).find((c) => c.challenge_id === id);
  if (!entry) return desk;
  return {
    ...desk,
    challenges: { ...desk.challenges, [entry.fingerprint]: { ...entry, ...change } },
  };
};

const revoke = (desk: Desk, ids: readonly string[], reason: Lease['revoked']): Desk => {
  const leases = { ...desk.leases };
  for (const id of ids) {
    const lease = own(leases, id);
    if (lease) setOwn(leases, id, { ...lease, revoked: reason });
  }
  return { ...desk, leases };
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
        missions: { ...desk.missions, [mission_id]: mission },
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
        leases: { ...desk.leases, [lease.session_id]: { ...lease, revoked: null } },
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
        challenges: {
          ...desk.challenges,
          [c.fingerprint]: { ...c, attempts_remaining: 3, status: 'pending' },
        },
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
        lanes: { ...desk.lanes, [focus_id]: { focus_id, label, status } },
        focus_id: focus,
      };
    }
    case 'inbox_item.parked': {
      const { item_id, text, tags, source } = event.data;
      return { ...desk, inbox: [...desk.inbox, { item_id, text, tags, source }] };
    }
    case 'mission_item.parked': {
      const { item_id, mission_id, idea, rationale } = event.data;
      return { ...desk, parked: [...desk.parked, { item_id, mission_id, idea, rationale }] };
    }
    case 'intake.captured':
      return {
        ...desk,
        intakes: {
          ...desk.intakes,
          [event.data.intake_id]: { raw: event.data.raw, distilled: false },
        },
      };
    case 'intake.distilled': {
      const intake = own(desk.intakes, event.data.intake_id);
      if (!intake) return desk;
      return {
        ...desk,
        intakes: { ...desk.intakes, [event.data.intake_id]: { ...intake, distilled: true } },
      };
    }
    case 'mission_checkpoint.recorded': {
      const { project_id: _p, ...checkpoint } = event.data;
      return { ...desk, checkpoints: [...desk.checkpoints, checkpoint] };
    }
    case 'day.stopped':
      return {
        ...desk,
        stops: [...desk.stops, { day: event.data.day, stopped_at: event.data.stopped_at }],
      };
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

/** Leases that count against capacity at `now`: granted, not revoked, not expired. */
export const liveLeases = (desk: Desk, missionId: string, now: string): Lease[] =>
  Object.values(desk.leases).filter(
    (l) => l.mission_id === missionId && l.revoked === null && l.expires_at > now,
  );

export const activeLanes = (desk: Desk): string[] =>
  Object.values(desk.lanes)
    .filter((l) => l.status === 'ACTIVE')
    .map((l) => l.focus_id);

// Snapshots of a project's desk: missions, leases, lanes (src/commands/snapshots.ts): bump `version` whenever evolveDesk or the state's
// shape changes, so snapshots of the old fold are ignored and streams folded again.
Snapshots.declare({
  name: 'missions.desk',
  version: 1,
  evolve: evolveDesk,
  initialState: initialDesk,
});
