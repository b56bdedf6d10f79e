import type { KernelModule } from '../app/kernel-module.js';
import { governanceEvents } from '../events/catalog/governance.js';
import { intentEvents } from '../events/catalog/intent.js';
import { missionsEvents } from '../events/catalog/missions.js';
import { storymapEvents } from '../events/catalog/storymap.js';
import { webEvents } from '../events/catalog/web.js';
import { intentSnapshotProjector } from '../projections/intent-snapshot.js';
import { pendingActionsProjector } from '../projections/pending-actions.js';
import { storyMapBuildOrderProjector } from '../projections/storymap-build-order.js';
import { storyMapStoriesProjector } from '../projections/storymap-stories.js';
import { webSignInProjector } from '../projections/web-sign-in.js';
import { workPackagesProjector } from '../projections/work-packages.js';

/**
 * The registry below the surfaces: every context's events and read models, none of its MCP
 * surfaces, pages or commands. A command that opens the log but serves nothing (`hook`, which
 * hosts start on every prompt) loads this instead of index.ts; the log it opens is the same —
 * the whole catalog, and every read model, since the process may become the writer that keeps
 * them. test/modules/kernel.test.ts holds it equal to `modules`' kernel part.
 */
export const kernelModules: readonly KernelModule[] = [
  { name: 'system', events: [] },
  {
    name: 'governance',
    events: governanceEvents,
    projectors: [workPackagesProjector, pendingActionsProjector],
  },
  {
    name: 'storymap',
    events: storymapEvents,
    projectors: [storyMapStoriesProjector, storyMapBuildOrderProjector],
  },
  { name: 'web', events: webEvents, projectors: [webSignInProjector] },
  { name: 'intent', events: intentEvents, projectors: [intentSnapshotProjector] },
  { name: 'missions', events: missionsEvents },
];
