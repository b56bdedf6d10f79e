import { command, defineContext } from './define.js';

/**
 * The project context every other shares: projects and rosters, roots, tokens, sign-in. Its
 * events and read models are the kernel's own (src/app/project/module.ts: the app always opens
 * with them, and `token create` with them alone), so it declares no kernel part here.
 */
export const project = defineContext({
  name: 'project',
  pages: async () => (await import('../web/project/pages.js')).projectPages,
  commands: {
    // `token create`, which scripts wait for, opens the project's log alone (cli/project/log.ts)
    token: command('nothing', async () => (await import('../cli/project/token.js')).tokenCommand),
  },
});
