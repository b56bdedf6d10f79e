import {
  designEvents,
  runEvents,
  sessionEvents,
  storyBuildEvents,
  storymapEvents,
} from '../../events/storymap/index.js';
import { storyMapBuildOrderProjector } from '../../projections/storymap/build-order.js';
import { storyMapRunsProjector } from '../../projections/storymap/runs.js';
import { storyMapStoriesProjector } from '../../projections/storymap/stories.js';
import type { KernelModule } from '../kernel-module.js';

/** The story map below its surfaces: its events and read models (src/modules/storymap.ts). */
export const storymapKernel = {
  name: 'storymap',
  events: [...storymapEvents, ...storyBuildEvents, ...sessionEvents, ...runEvents, ...designEvents],
  projectors: [storyMapStoriesProjector, storyMapBuildOrderProjector, storyMapRunsProjector],
} satisfies KernelModule;
