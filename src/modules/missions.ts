import { ownerCommand } from '../cli/commands/owner.js';
import { missionsEvents } from '../events/catalog/missions.js';
import { missionsSurface } from '../mcp/surfaces/missions.js';
import { defineModule } from './define.js';

/** Missions with finite contracts, session leases and the owner gate (contracts/missions.md). */
export const missionsModule = defineModule({
  name: 'missions',
  events: missionsEvents,
  surfaces: [missionsSurface],
  cli: [ownerCommand],
});
