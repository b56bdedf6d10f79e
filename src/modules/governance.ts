import { syncCommand } from '../cli/commands/sync.js';
import { governanceSurface } from '../mcp/surfaces/governance.js';
import { governancePages } from '../web/pages/governance.js';
import { defineModule } from './define.js';
import { governanceKernel } from './kernel.js';

/** Multi-actor work governance (contracts/governance.md). */
export const governanceModule = defineModule({
  ...governanceKernel,
  surfaces: [governanceSurface],
  cli: [syncCommand],
  pages: governancePages,
});
