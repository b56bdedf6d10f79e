import type { App } from '../../src/app/app.js';
import { storymap } from '../../src/app/storymap/index.js';
import { storymapBuild } from '../../src/app/storymap/build.js';
import { SYSTEM } from '../../src/commands/principal.js';

export const VISION = {
  users: 'parents of toddlers',
  problem: 'photos get lost',
  switch: 'one tap',
  first: 'upload',
  proof: '100 books a month',
};

/**
 * A small story map as the local user makes it: three stories over three activities and two
 * releases, PB-2 depending on PB-1, PB-1 and PB-2 sequenced, PB-1 built (done), PB-4 cancelled.
 */
export const photoBook = async (app: App) => {
  const sm = storymap(app);
  const { project_id } = await sm.createProject(
    { name: 'Photo Book', idea: 'Print photo books from a phone', client: null },
    SYSTEM,
  );
  await sm.setVision({ project_id, answers: VISION }, SYSTEM);
  const made = await sm.createStories(
    {
      project_id,
      stories: [
        {
          title: 'Upload photos',
          activity: 'Collect',
          priority: 'must',
          acceptance_criteria: [{ text: 'A photo shows in the book', priority: 'must' }],
        },
        { title: 'Arrange pages', activity: 'Design', acceptance_criteria: ['Pages reorder'] },
        { title: 'Order the book', activity: 'Buy', release_order: 2 },
        { title: 'Share on social', activity: 'Buy', release_order: 2 },
      ],
    },
    SYSTEM,
  );
  const [upload, arrange, , share] = made.result.map((s) => s.story_id);
  await sm.updateStories(
    {
      project_id,
      stories: [
        { id: upload!, build_sequence: 1, status: 'in_progress' },
        { id: arrange!, build_sequence: 2, dependencies: [upload!] },
      ],
    },
    SYSTEM,
  );
  await sm.updateStories({ project_id, stories: [{ id: upload!, status: 'done' }] }, SYSTEM);
  await sm.addNote({ project_id, story_id: 'PB-1', note: 'Uses the phone picker.' }, SYSTEM);
  await sm.cancel({ project_id, story_id: share!, reason: 'not now' }, SYSTEM, true);
  return { project_id };
};

/**
 * An agent at work on PB-2 of the photo book: it started the story, saved a two-step plan (it
 * awaits review), handed the founder a step and raised a blocker.
 */
export const agentAtWork = async (app: App, project_id: string) => {
  const build = storymapBuild(app);
  const on = { project_id, story_id: 'PB-2' };
  await build.start(on, SYSTEM, { session_id: 'agent-1', client: null });
  await build.savePlan(
    { ...on, steps: [{ text: 'Lay out the page grid' }, { text: 'Drag pages to reorder' }] },
    SYSTEM,
    'agent-1',
  );
  await build.needsFounder(
    { ...on, action: 'Create the print shop account', detail: 'needs a card' },
    SYSTEM,
    'agent-1',
  );
  await build.raiseBlocker(
    {
      ...on,
      summary: 'Reorder on touch',
      attempting: 'drag and drop',
      failing: 'no long-press on iOS',
      decision_needed: 'buttons or long-press?',
    },
    SYSTEM,
    'agent-1',
  );
};
