import { founderCommand } from '../cli/commands/founder.js';
import { designEvents, runEvents, storymapEvents } from '../events/catalog/storymap.js';
import { storyMapSurface } from '../mcp/surfaces/storymap.js';
import { storyMapBuildOrderProjector } from '../projections/storymap-build-order.js';
import { storyMapRunsProjector } from '../projections/storymap-runs.js';
import { storyMapStoriesProjector } from '../projections/storymap-stories.js';
import { defineModule } from './define.js';

/** The story map (contracts/storymap.md, hosted part). */
export const storymapModule = defineModule({
  name: 'storymap',
  events: [...storymapEvents, ...runEvents, ...designEvents],
  projectors: [storyMapStoriesProjector, storyMapBuildOrderProjector, storyMapRunsProjector],
  surfaces: [storyMapSurface],
  cli: [founderCommand],
});
