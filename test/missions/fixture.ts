import type { ContractBody } from '../../src/events/missions/index.js';
import { isDomainError } from '../../src/commands/errors.js';
import type { DeskEvent } from '../../src/commands/missions/desk-events.js';
import { contractHash } from '../../src/commands/missions/contract.js';
import { hashOwnerCode, type GateInput } from '../../src/commands/missions/owner-gate.js';

/** The shared domain fixture of the missions tests: one project, one finite contract. */
export const P = 'p1';
export const T0 = '2026-12-01T10:00:00.000Z';
export const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

export const contract: ContractBody = {
  objective: 'Ship the CSV export of the weekly report',
  artifact: 'src/export/csv.ts',
  done_criteria: [
    { id: 'C1', description: 'export writes a valid CSV file' },
    { id: 'C2', description: 'tests cover empty weeks' },
  ],
  non_goals: ['pdf export'],
  constraints: {
    project_path: '/work/demo',
    project_id: null,
    allowed_paths: ['src/export', 'test'],
    capabilities: ['commit'],
    max_parallel_sessions: 2,
    time_limit_hours: null,
  },
  owner: 'sam',
};

export const opened: DeskEvent = {
  type: 'mission.opened',
  data: {
    project_id: P,
    mission_id: 'M1',
    contract_version: 1,
    contract,
    contract_hash: contractHash(contract),
    opened_at: T0,
  },
};

export const granted = (session_id: string, minutes = 0, duration = 30): DeskEvent => ({
  type: 'lease.granted',
  data: {
    project_id: P,
    mission_id: 'M1',
    session_id,
    contract_version: 1,
    agent_identity: `agent-${session_id}`,
    role: 'implementer',
    contribution: 'the exporter',
    expected_result: 'csv.ts',
    criterion_ids: ['C1'],
    capabilities: [],
    device_id: null,
    harness_id: null,
    granted_at: at(minutes),
    expires_at: at(minutes + duration),
  },
});

export const SALT = 'salt1';
export const CODE = 'K7F3M9QW';
export const fresh = (challenge_id = 'CH1', code = CODE, minutes = 10) => ({
  challenge_id,
  code_salt: SALT,
  code_hash: hashOwnerCode(SALT, code),
  channel: 'file',
  expires_at: at(minutes),
});
/** The caller of a gated command: an owner of the project, unless a test says otherwise. */
export const OWNER = { actor_id: 'sam', owner: true };
export const askGate = (challenge_id = 'CH1'): GateInput => ({
  mode: 'nonce',
  owner_code: null,
  reason: 'scope grew',
  fresh: fresh(challenge_id),
  caller: OWNER,
});
export const presentGate = (code: string): GateInput => ({
  mode: 'nonce',
  owner_code: code,
  reason: 'scope grew',
  fresh: fresh('CH-unused'),
  caller: OWNER,
});

/** The decider refused with this contract code (and, optionally, these details). */
export const withCode =
  (code: string, check: (details: Record<string, unknown>) => boolean = () => true) =>
  (error: Error) =>
    isDomainError(error) && (error.code as string) === code && check(error.details);
