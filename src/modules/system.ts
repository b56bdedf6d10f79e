import { defineContext } from './define.js';

/** What the server itself knows (whoami, server_info): no events of its own. */
export const system = defineContext({
  name: 'system',
  surfaces: async () => [(await import('../mcp/surfaces/system.js')).systemSurface],
});
