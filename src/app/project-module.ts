import { projectEvents } from '../events/catalog/project.js';
import { projectsProjector } from '../projections/projects.js';
import { tokensProjector } from '../projections/tokens.js';
import type { KernelModule } from './kernel-module.js';

/** The project context: the aggregate every surface shares, and access tokens. Always loaded. */
export const projectModule: KernelModule = {
  name: 'project',
  events: projectEvents,
  projectors: [projectsProjector, tokensProjector],
};
