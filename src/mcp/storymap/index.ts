import type { Surface } from '../tool.js';
import { withSet } from '../tool-sets.js';
import { buildTools } from './build-tools.js';
import { cardResource, withCards } from './cards.js';
import { planTools } from './plan-tools.js';
import { extraTools } from './extra-tools.js';
import { projectTools } from './project-tools.js';
import { specMyIdeaPrompt, specMyIdeaText, workflowPrompt } from './prompts.js';
import { runTools } from './run-tools.js';
import { storyTools } from './story-tools.js';

/**
 * The story map (contracts/storymap.md, hosted part): projects, the vision, stories and their
 * criteria, releases, the build order, decisions and notes. Its create_project clashes with
 * governance's, so `serve` mounts it at /mcp/storymap. Its instructions are the spec-my-idea
 * prompt's text; get_story, get_status, check_release_readiness and get_build_order render
 * cards (storymap/cards.ts).
 *
 * Two sets (`--surface storymap:core`): `core` is the everyday loop, 26 tools (read the map,
 * write stories and criteria, build a story from start to complete, runs, the founder's to-do),
 * for hosts that load at most 40 tools of a server (Cursor); `all` adds the rest (46).
 */
const CORE = [
  'list_projects',
  'create_project',
  'get_session_context',
  'get_context',
  'get_status',
  'get_vision',
  'set_vision',
  'list_stories',
  'get_story',
  'create_stories',
  'update_stories',
  'add_criteria',
  'get_build_order',
  'log_decision',
  'add_note',
  'start_story',
  'save_plan',
  'save_tests',
  'report_criteria',
  'raise_blocker',
  'needs_founder',
  'complete_story',
  'link_pr',
  'get_run',
  'next_in_run',
  'get_founder_todo',
];

export const storyMapSurface: Surface = {
  name: 'storymap',
  title: 'Story map',
  instructions:
    `${specMyIdeaText().trimEnd()}\n\nA failure is ok:false with error {code, message, ` +
    'details}; the message is the contract’s own text (e.g. "No story found matching …").',
  tiers: ['core', 'all'],
  defaultTier: 'all',
  tools: withSet(
    withCards([
      ...projectTools,
      ...storyTools,
      ...planTools,
      ...buildTools,
      ...runTools,
      ...extraTools,
    ]),
    'core',
    CORE,
  ),
  resources: [cardResource],
  prompts: [specMyIdeaPrompt, workflowPrompt],
};
