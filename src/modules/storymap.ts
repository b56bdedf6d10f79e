import { founderCommand } from '../cli/commands/founder.js';
import { storymapCommand } from '../cli/commands/storymap.js';
import { storyMapSurface } from '../mcp/surfaces/storymap.js';
import { storyMapLocalSurface } from '../mcp/surfaces/storymap-local.js';
import { defineModule } from './define.js';
import { storymapKernel } from './kernel.js';

/** The story map (contracts/storymap.md): the hosted surface and the local server. */
export const storymapModule = defineModule({
  ...storymapKernel,
  surfaces: [storyMapSurface, storyMapLocalSurface],
  cli: [founderCommand, storymapCommand],
});
