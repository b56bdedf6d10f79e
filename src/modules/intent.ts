import { hookCommand } from '../cli/commands/hook.js';
import { intentEvents } from '../events/catalog/intent.js';
import { intentSurface } from '../mcp/surfaces/intent.js';
import { intentSnapshotProjector } from '../projections/intent-snapshot.js';
import { defineModule } from './define.js';

/** Intent claims of a coding task (contracts/intent.md), its Hooks CLI included. */
export const intentModule = defineModule({
  name: 'intent',
  events: intentEvents,
  projectors: [intentSnapshotProjector],
  surfaces: [intentSurface],
  cli: [hookCommand],
});
