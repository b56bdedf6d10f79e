import type { Surface } from '../tool.js';
import { cardResource } from './cards.js';
import { MODES } from './local-define.js';
import { localResources } from './local-resources.js';
import { localTools } from './local-tools.js';
import { localWorkflowPrompt } from './prompts.js';

/**
 * The local story-map server (contracts/storymap.md, "Local server"): a smaller surface over the
 * one project linked in `.intentlog/config.json` (`intentlog storymap link`), so no tool takes
 * project_id. Modes are its tiers: `--surface storymap-local:core|standard|all` (default all);
 * a tool outside the mode served is refused naming the mode it needs (tier-refusal.ts). Its
 * six resources and the card are served in every mode.
 */
export const storyMapLocalSurface: Surface = {
  name: 'storymap-local',
  title: 'Story map (local)',
  instructions:
    'The local story map acts on the project linked to this directory (.intentlog/config.json, ' +
    'written by `intentlog storymap link <project_id>`): no tool takes a project id. Start with ' +
    'get_status and list_stories; read intentlog://project/build-order for what to build next. ' +
    'A cancelled story is a hard stop: when a tool answers "Development of … was cancelled", ' +
    'stop all work on that story and do not retry. The intentlog-workflow prompt walks through ' +
    'the loop. A failure is ok:false with error {code, message, details}.',
  tiers: MODES,
  defaultTier: 'all',
  tools: localTools,
  resources: [...localResources, cardResource],
  prompts: [localWorkflowPrompt],
  errorSummary: (error) => (error.code === 'story_cancelled' ? error.message : undefined),
};
