import { founderCommand } from '../cli/storymap/founder.js';
import { storymapCommand } from '../cli/storymap/index.js';
import { storyMapSurface } from '../mcp/storymap/index.js';
import { storyMapLocalSurface } from '../mcp/storymap/local.js';
import { defineModule } from './define.js';
import { storymapKernel } from './kernel.js';

/** The story map (contracts/storymap.md): the hosted surface and the local server. */
export const storymapModule = defineModule({
  ...storymapKernel,
  surfaces: [storyMapSurface, storyMapLocalSurface],
  cli: [founderCommand, storymapCommand],
});
