import { command, defineContext } from './define.js';

/** Missions with finite contracts, session leases and the owner gate (contracts/missions.md). */
export const missions = defineContext({
  name: 'missions',
  kernel: async () => (await import('../app/missions/module.js')).missionsKernel,
  surfaces: async () => [(await import('../mcp/missions/index.js')).missionsSurface],
  pages: async () => (await import('../web/missions/index.js')).missionsPages,
  commands: {
    owner: command(
      'everything',
      async () => (await import('../cli/missions/owner.js')).ownerCommand,
    ),
  },
});
