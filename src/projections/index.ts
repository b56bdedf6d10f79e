import { pendingActionsProjector } from './pending-actions.js';
import { projectsProjector } from './projects.js';
import { tokensProjector } from './tokens.js';
import type { Projector } from './projector.js';
import { workPackagesProjector } from './work-packages.js';

export * from './engine.js';
export * from './projector.js';
export type { ProjectView } from './projects.js';
export type { TokenView } from './tokens.js';

/** Every read model of the product; surfaces add theirs here. */
export const allProjectors: readonly Projector[] = [
  projectsProjector,
  tokensProjector,
  workPackagesProjector,
  pendingActionsProjector,
];
