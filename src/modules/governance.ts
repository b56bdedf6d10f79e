import { syncCommand } from '../cli/commands/sync.js';
import { governanceEvents } from '../events/catalog/governance.js';
import { governanceSurface } from '../mcp/surfaces/governance.js';
import { pendingActionsProjector } from '../projections/pending-actions.js';
import { workPackagesProjector } from '../projections/work-packages.js';
import { governancePages } from '../web/pages/governance.js';
import { defineModule } from './define.js';

/** Multi-actor work governance (contracts/governance.md). */
export const governanceModule = defineModule({
  name: 'governance',
  events: governanceEvents,
  projectors: [workPackagesProjector, pendingActionsProjector],
  surfaces: [governanceSurface],
  cli: [syncCommand],
  pages: governancePages,
});
