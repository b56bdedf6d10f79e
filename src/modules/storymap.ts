import { founderCommand } from '../cli/commands/founder.js';
import { storymapCommand } from '../cli/commands/storymap.js';
import {
  designEvents,
  runEvents,
  sessionEvents,
  storyBuildEvents,
  storymapEvents,
} from '../events/catalog/storymap.js';
import { storyMapSurface } from '../mcp/surfaces/storymap.js';
import { storyMapLocalSurface } from '../mcp/surfaces/storymap-local.js';
import { storyMapBuildOrderProjector } from '../projections/storymap-build-order.js';
import { storyMapRunsProjector } from '../projections/storymap-runs.js';
import { storyMapStoriesProjector } from '../projections/storymap-stories.js';
import { defineModule } from './define.js';

/** The story map (contracts/storymap.md): the hosted surface and the local server. */
export const storymapModule = defineModule({
  name: 'storymap',
  events: [...storymapEvents, ...storyBuildEvents, ...sessionEvents, ...runEvents, ...designEvents],
  projectors: [storyMapStoriesProjector, storyMapBuildOrderProjector, storyMapRunsProjector],
  surfaces: [storyMapSurface, storyMapLocalSurface],
  cli: [founderCommand, storymapCommand],
});
