import type { Surface } from '../tool.js';
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
 */
export const storyMapSurface: Surface = {
  name: 'storymap',
  title: 'Story map',
  instructions: specMyIdeaText(),
  tiers: ['all'],
  defaultTier: 'all',
  tools: withCards([
    ...projectTools,
    ...storyTools,
    ...planTools,
    ...buildTools,
    ...runTools,
    ...extraTools,
  ]),
  resources: [cardResource],
  prompts: [specMyIdeaPrompt, workflowPrompt],
};
