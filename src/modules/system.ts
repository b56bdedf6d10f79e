import { systemSurface } from '../mcp/surfaces/system.js';
import { defineModule } from './define.js';
import { systemKernel } from './kernel.js';

/** What the server itself knows (whoami, server_info): no events of its own. */
export const systemModule = defineModule({
  ...systemKernel,
  surfaces: [systemSurface],
});
