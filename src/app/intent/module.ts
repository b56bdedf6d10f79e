import { intentEvents } from '../../events/intent/index.js';
import { intentSnapshotProjector } from '../../projections/intent/snapshot.js';
import type { KernelModule } from '../kernel-module.js';
import { startHookKeeper } from './hook-keeper.js';

/** Intent below its surface: its events, its read model and the writer's side of the Hooks. */
export const intentKernel = {
  name: 'intent',
  events: intentEvents,
  projectors: [intentSnapshotProjector],
  // Hooks never open the store: the writer folds their spool and keeps their view files
  onWriter: startHookKeeper,
} satisfies KernelModule;
