import { ownerCommand } from '../cli/commands/owner.js';
import { missionsSurface } from '../mcp/surfaces/missions.js';
import { defineModule } from './define.js';
import { missionsKernel } from './kernel.js';

/** Missions with finite contracts, session leases and the owner gate (contracts/missions.md). */
export const missionsModule = defineModule({
  ...missionsKernel,
  surfaces: [missionsSurface],
  cli: [ownerCommand],
});
