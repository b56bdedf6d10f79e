import { command, defineContext } from './define.js';

/**
 * The web view (docs/web.md): its sign-in codes (the project context's events, kept as a module
 * of their own) and `open`. Its own pages (timeline, audit) follow every context's (index.ts).
 */
export const web = defineContext({
  name: 'web',
  kernel: async () => (await import('../app/project/web-module.js')).webKernel,
  commands: {
    open: command('everything', async () => (await import('../cli/commands/open.js')).openCommand),
  },
});
