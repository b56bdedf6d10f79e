import type { Desk } from '../../commands/missions/desk-state.js';

/** A mission as the mission tools answer it: its id, status, contract version, hash and body. */
export const missionView = (desk: Desk, missionId: string) => {
  const m = desk.missions.get(missionId)!;
  return {
    mission_id: m.mission_id,
    status: m.status,
    contract_version: m.contract_version,
    contract_hash: m.contract_hash,
    contract: m.contract,
  };
};
