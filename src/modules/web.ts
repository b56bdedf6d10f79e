import { openCommand } from '../cli/commands/open.js';
import { projectPages } from '../web/project/pages.js';
import { auditPage } from '../web/pages/audit.js';
import { intentTaskPage, intentTasksPage } from '../web/intent/index.js';
import { missionPage, missionsPage } from '../web/missions/index.js';
import { buildOrderPage } from '../web/storymap/build-order.js';
import { storyBoardPage } from '../web/storymap/board.js';
import { releaseProgressPage } from '../web/storymap/release.js';
import { storyPage } from '../web/storymap/story.js';
import { founderTodoPage } from '../web/storymap/todo.js';
import { timelinePage } from '../web/pages/timeline.js';
import { defineModule } from './define.js';
import { webKernel } from './kernel.js';

/**
 * The story map's pages, listed here rather than in the story map's module while that context
 * is being reworked in parallel (the lead may move them to `storymapModule.pages`).
 */
const storyMapPages = [
  storyBoardPage,
  buildOrderPage,
  founderTodoPage,
  storyPage,
  releaseProgressPage,
];
/** Likewise the intent and missions pages (their modules may list them instead). */
const intentPages = [intentTasksPage, intentTaskPage];
const missionsPages = [missionsPage, missionPage];

/** The web view (docs/web.md): sign-in codes, the projects and timeline pages, `open`. */
export const webModule = defineModule({
  ...webKernel,
  cli: [openCommand],
  pages: [
    ...projectPages,
    ...storyMapPages,
    ...intentPages,
    ...missionsPages,
    timelinePage,
    auditPage,
  ],
});
