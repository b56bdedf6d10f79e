import { command, defineContext } from './define.js';

/** Intent claims of a coding task (contracts/intent.md), its Hooks CLI included. */
export const intent = defineContext({
  name: 'intent',
  kernel: async () => (await import('../app/intent/module.js')).intentKernel,
  surfaces: async () => [(await import('../mcp/intent/index.js')).intentSurface],
  pages: async () => (await import('../web/intent/index.js')).intentPages,
  commands: {
    // a well-formed Hook line never gets here (main.ts runs it first, opening no store): this
    // declaration serves `intentlog hook --help` and explains a malformed line
    hook: command('kernel', async () => (await import('../cli/intent/hook.js')).hookCommand),
  },
});
