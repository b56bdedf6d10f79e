import { oauthEvents } from '../events/catalog/oauth.js';
import { projectEvents } from '../events/catalog/project.js';
import { projectsProjector } from '../projections/projects.js';
import { tokensProjector } from '../projections/tokens.js';
import type { KernelModule } from './kernel-module.js';

/** The project context: the aggregate every surface shares, access tokens and the
 * OAuth grants they are issued under. Always loaded. */
export const projectModule: KernelModule = {
  name: 'project',
  events: [...projectEvents, ...oauthEvents],
  projectors: [projectsProjector, tokensProjector],
};
