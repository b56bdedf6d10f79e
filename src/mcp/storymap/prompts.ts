import { shippedText } from '../shipped.js';
import { definePrompt, type AnyPrompt } from '../tool.js';

/**
 * The story map's prompts (contracts/storymap.md, "Prompts"), named for this product. Their
 * texts are files in the package's `prompts/` folder, so they are read and edited as prose;
 * `spec-my-idea` is also the hosted surface's server instructions: one text, as the contract
 * says.
 */
export const specMyIdeaText = (): string => shippedText('prompts/spec-my-idea.md');

const textPrompt = (name: string, title: string, description: string, file: string) =>
  definePrompt({
    name,
    title,
    description,
    run: async () => [{ role: 'user', text: shippedText(file) }],
  });

export const specMyIdeaPrompt: AnyPrompt = textPrompt(
  'spec-my-idea',
  'Spec my idea',
  'Starts the flow from an idea to a story map: agree a name and idea, create the project, answer the five vision questions, map stories with criteria, order and check them.',
  'prompts/spec-my-idea.md',
);

export const workflowPrompt: AnyPrompt = textPrompt(
  'intentlog-workflow',
  'The story-map workflow',
  'A guide to building stories: orient, check release readiness, pick a story, start it, build, save tests, report criteria, raise blockers, complete, repeat.',
  'prompts/intentlog-workflow.md',
);

/** The same guide for the local server, with its tool names (mark_in_progress, mark_done). */
export const localWorkflowPrompt: AnyPrompt = textPrompt(
  'intentlog-workflow',
  'The story-map workflow (local server)',
  'A guide to building stories on the linked project: orient, pick a story, mark it in progress, build, report criteria, raise blockers, mark it done, repeat.',
  'prompts/intentlog-workflow-local.md',
);
