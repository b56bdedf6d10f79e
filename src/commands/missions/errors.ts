import { domainError, type DomainError } from '../errors.js';

/** The missions contract's own error codes (contracts/missions.md, NOTES.md). */
export type MissionsErrorCode =
  | 'path_outside_root'
  | 'missing_project'
  | 'max_active_lanes'
  | 'owner_gate_required'
  | 'no_proposal'
  | 'invalid_args'
  | 'active_mission_exists'
  | 'mission_not_active'
  | 'contract_version_mismatch'
  | 'lease_expired'
  | 'lease_revoked'
  | 'review_required'
  | 'parallel_session_denied'
  | 'device_mount_required'
  | 'invalid_owner_code'
  | 'no_pending_challenge'
  | 'malformed_owner_code'
  | 'owner_channel_unavailable'
  /** learning blocks (HAI-MCP's hai_learning_* tools) */
  | 'learning_block_active'
  | 'learning_time_required'
  | 'learning_block_already_completed'
  | 'learning_block_abandoned'
  | 'learning_block_already_abandoned'
  /** an owner-gated change by a caller without the missions `owner` role (docs/decisions.md) */
  | 'owner_role_required';

/** A refusal in the contract's words: nothing is written, the caller branches on `code`. */
export const missionsError = (
  code: MissionsErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): DomainError => domainError(code, message, details);
