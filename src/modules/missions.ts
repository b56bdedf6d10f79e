import { ownerCommand } from '../cli/missions/owner.js';
import { missionsSurface } from '../mcp/missions/index.js';
import { defineModule } from './define.js';
import { missionsKernel } from './kernel.js';

/** Missions with finite contracts, session leases and the owner gate (contracts/missions.md). */
export const missionsModule = defineModule({
  ...missionsKernel,
  surfaces: [missionsSurface],
  cli: [ownerCommand],
});
