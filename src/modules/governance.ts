import { command, defineContext } from './define.js';

/** Multi-actor work governance (contracts/governance.md). */
export const governance = defineContext({
  name: 'governance',
  kernel: async () => (await import('../app/governance/module.js')).governanceKernel,
  surfaces: async () => [(await import('../mcp/governance/index.js')).governanceSurface],
  pages: async () => (await import('../web/governance/index.js')).governancePages,
  commands: {
    sync: command(
      'everything',
      async () => (await import('../cli/governance/sync.js')).syncCommand,
    ),
  },
});
