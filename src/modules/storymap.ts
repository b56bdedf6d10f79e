import { command, defineContext } from './define.js';

/** The story map (contracts/storymap.md): the hosted surface and the local server. */
export const storymap = defineContext({
  name: 'storymap',
  kernel: async () => (await import('../app/storymap/module.js')).storymapKernel,
  surfaces: async () => {
    const [hosted, local] = await Promise.all([
      import('../mcp/storymap/index.js'),
      import('../mcp/storymap/local.js'),
    ]);
    return [hosted.storyMapSurface, local.storyMapLocalSurface];
  },
  pages: async () => {
    const [board, order, todo, story, release] = await Promise.all([
      import('../web/storymap/board.js'),
      import('../web/storymap/build-order.js'),
      import('../web/storymap/todo.js'),
      import('../web/storymap/story.js'),
      import('../web/storymap/release.js'),
    ]);
    return [
      board.storyBoardPage,
      order.buildOrderPage,
      todo.founderTodoPage,
      story.storyPage,
      release.releaseProgressPage,
    ];
  },
  commands: {
    founder: command(
      'everything',
      async () => (await import('../cli/storymap/founder.js')).founderCommand,
    ),
    storymap: command(
      'everything',
      async () => (await import('../cli/storymap/index.js')).storymapCommand,
    ),
  },
});
