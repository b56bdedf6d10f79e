import type { Surface } from '../tool.js';
import { planTools } from './storymap-plan-tools.js';
import { extraTools } from './storymap-extra-tools.js';
import { projectTools } from './storymap-project-tools.js';
import { runTools } from './storymap-run-tools.js';
import { storyTools } from './storymap-story-tools.js';

/**
 * The story map (contracts/storymap.md, hosted part): projects, the vision, stories and their
 * criteria, releases, the build order, decisions and notes. Its create_project clashes with
 * governance's, so `serve` mounts it at /mcp/storymap.
 */
export const storyMapSurface: Surface = {
  name: 'storymap',
  title: 'Story map',
  instructions:
    'The story map: start with list_projects (or create_project), then get_session_context. ' +
    'Answer the vision (set_vision) before create_stories. Stories are named by keys like PB-42. ' +
    'ready_for_dev and approved are set by the founder (`intentlog founder`), not by agents.',
  tiers: ['all'],
  defaultTier: 'all',
  tools: [...projectTools, ...storyTools, ...planTools, ...runTools, ...extraTools],
};
