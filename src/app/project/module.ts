import { oauthEvents } from '../../events/project/oauth.js';
import { projectEvents } from '../../events/project/index.js';
import { projectsProjector } from '../../projections/project/projects.js';
import { tokensProjector } from '../../projections/project/tokens.js';
import type { KernelModule } from '../kernel-module.js';

/** The project context: the aggregate every surface shares, access tokens and the
 * OAuth grants they are issued under. Always loaded. */
export const projectModule: KernelModule = {
  name: 'project',
  events: [...projectEvents, ...oauthEvents],
  projectors: [projectsProjector, tokensProjector],
};
