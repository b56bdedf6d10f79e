import { syncCommand } from '../cli/governance/sync.js';
import { governanceSurface } from '../mcp/governance/index.js';
import { governancePages } from '../web/governance/index.js';
import { defineModule } from './define.js';
import { governanceKernel } from './kernel.js';

/** Multi-actor work governance (contracts/governance.md). */
export const governanceModule = defineModule({
  ...governanceKernel,
  surfaces: [governanceSurface],
  cli: [syncCommand],
  pages: governancePages,
});
