import { governanceEvents } from '../../events/governance/index.js';
import { pendingActionsProjector } from '../../projections/governance/pending-actions.js';
import { workPackagesProjector } from '../../projections/governance/work-packages.js';
import type { KernelModule } from '../kernel-module.js';

/** Governance below its surfaces: its events and read models (src/modules/governance.ts). */
export const governanceKernel = {
  name: 'governance',
  events: governanceEvents,
  projectors: [workPackagesProjector, pendingActionsProjector],
} satisfies KernelModule;
