import { ownerCommand } from '../cli/commands/owner.js';
import { missionsEvents } from '../events/catalog/missions.js';
import { missionsSurface } from '../mcp/surfaces/missions.js';
import { writeArtifacts } from '../app/missions-artifact-projection.js';
import { missionsArtifactFindings } from '../app/missions-service.js';
import { missionsProjector } from '../projections/missions-desk.js';
import { defineModule } from './define.js';

/** Missions with finite contracts, session leases and the owner gate (contracts/missions.md). */
export const missionsModule = defineModule({
  name: 'missions',
  events: missionsEvents,
  // the artifact files are the read model's effect: written where the log is folded
  projectors: [{ ...missionsProjector, effect: writeArtifacts }],
  surfaces: [missionsSurface],
  audits: [{ name: 'missions artifacts', run: missionsArtifactFindings }],
  cli: [ownerCommand],
});
