import { writeArtifacts } from '../app/missions/artifact-projection.js';
import { missionsArtifactFindings } from '../app/missions/service.js';
import type { KernelModule } from '../app/kernel-module.js';
import { HOOK_OP } from '../app/intent/hook-wire.js';
import { hookOp } from '../app/intent-hooks.js';
import { governanceEvents } from '../events/governance/index.js';
import { intentEvents } from '../events/intent/index.js';
import { missionsEvents } from '../events/missions/index.js';
import {
  designEvents,
  runEvents,
  sessionEvents,
  storyBuildEvents,
  storymapEvents,
} from '../events/storymap/index.js';
import { webEvents } from '../events/project/sign-in.js';
import { intentSnapshotProjector } from '../projections/intent/snapshot.js';
import { missionsProjector } from '../projections/missions/desk.js';
import { pendingActionsProjector } from '../projections/governance/pending-actions.js';
import { storyMapBuildOrderProjector } from '../projections/storymap/build-order.js';
import { storyMapRunsProjector } from '../projections/storymap/runs.js';
import { storyMapStoriesProjector } from '../projections/storymap/stories.js';
import { webSignInProjector } from '../projections/project/sign-in.js';
import { workPackagesProjector } from '../projections/governance/work-packages.js';

/*
 * Each context's part below the surfaces: its events and read models. The module of each
 * context (src/modules/<ctx>.ts) spreads its part here and adds surfaces, pages and commands,
 * so the two registries cannot drift. A command that opens the log but serves nothing (`hook`,
 * which hosts start on every prompt) loads only this file: the same whole catalog and every
 * read model, since the process may become the writer that keeps them.
 */
export const systemKernel = { name: 'system', events: [] } satisfies KernelModule;
export const governanceKernel = {
  name: 'governance',
  events: governanceEvents,
  projectors: [workPackagesProjector, pendingActionsProjector],
} satisfies KernelModule;
export const storymapKernel = {
  name: 'storymap',
  events: [...storymapEvents, ...storyBuildEvents, ...sessionEvents, ...runEvents, ...designEvents],
  projectors: [storyMapStoriesProjector, storyMapBuildOrderProjector, storyMapRunsProjector],
} satisfies KernelModule;
export const webKernel = {
  name: 'web',
  events: webEvents,
  projectors: [webSignInProjector],
} satisfies KernelModule;
export const intentKernel = {
  name: 'intent',
  events: intentEvents,
  projectors: [intentSnapshotProjector],
  // a Hook process asks a running writer to answer it (src/cli/hook-run.ts)
  writerOps: { [HOOK_OP]: hookOp },
} satisfies KernelModule;
export const missionsKernel = {
  name: 'missions',
  events: missionsEvents,
  // the artifact files are the read model's effect: written where the log is folded
  projectors: [{ ...missionsProjector, effect: writeArtifacts }],
  audits: [{ name: 'missions artifacts', run: missionsArtifactFindings }],
} satisfies KernelModule;

/** In the order of `modules` (index.ts); test/modules/kernel.test.ts holds them equal. */
export const kernelModules: readonly KernelModule[] = [
  systemKernel,
  governanceKernel,
  storymapKernel,
  webKernel,
  intentKernel,
  missionsKernel,
];
