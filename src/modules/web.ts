import { openCommand } from '../cli/commands/open.js';
import { webEvents } from '../events/catalog/web.js';
import { webSignInProjector } from '../projections/web-sign-in.js';
import { projectPages } from '../web/pages/projects.js';
import { auditPage } from '../web/pages/audit.js';
import { timelinePage } from '../web/pages/timeline.js';
import { defineModule } from './define.js';

/** The web view (docs/web.md): sign-in codes, the projects and timeline pages, `open`. */
export const webModule = defineModule({
  name: 'web',
  events: webEvents,
  projectors: [webSignInProjector],
  cli: [openCommand],
  pages: [...projectPages, timelinePage, auditPage],
});
