import { strict as assert } from 'node:assert';
import { isDomainError } from '../../src/commands/errors.js';
import type { Caller } from '../../src/commands/storymap/access.js';
import type { Criterion } from '../../src/events/storymap/index.js';
import {
  evolveMap,
  initialMap,
  type MapEvent,
  type MapState,
} from '../../src/commands/storymap/map-state.js';
import {
  evolveStory,
  initialStory,
  type StoryEvent,
  type StoryState,
} from '../../src/commands/storymap/story-state.js';

/** One project's story map, as its streams would hold it: the shared fixture of every spec. */
export const P = 'p-1';
export const owner: Caller = { actor_id: 'olivia', role: 'owner' };
export const editor: Caller = { actor_id: 'eddie', role: 'editor' };
export const commenter: Caller = { actor_id: 'cora', role: 'commenter' };
export const viewer: Caller = { actor_id: 'vic', role: 'viewer' };

export const mapCreated: MapEvent = {
  type: 'storymap.created',
  data: {
    project_id: P,
    map_id: P,
    name: 'Photo Book',
    idea: 'Print books',
    key_prefix: 'PB',
    created_by: 'olivia',
    client: null,
  },
};
export const visionDone: MapEvent = {
  type: 'storymap.vision_answered',
  data: {
    project_id: P,
    answers: {
      users: 'parents',
      problem: 'photos lost',
      switch: 'cheaper',
      first: 'upload',
      proof: 'orders',
    },
    source: 'answers',
    by: 'olivia',
  },
};
export const activity = (name: string, position = 0): MapEvent => ({
  type: 'storymap.activity_added',
  data: { project_id: P, activity_id: `activity-${position + 1}`, name, position },
});
export const release = (order: number, label = `Release ${order}`): MapEvent => ({
  type: 'storymap.release_created',
  data: { project_id: P, release_order: order, label },
});
export const indexed = (
  id: string,
  n: number,
  title = `Story ${n}`,
  cancelled = false,
): MapEvent => ({
  type: 'storymap.story_indexed',
  data: { project_id: P, story_id: id, key: `PB-${n}`, title, cancelled },
});
export const depends = (id: string, ...on: string[]): MapEvent => ({
  type: 'storymap.dependencies_set',
  data: { project_id: P, story_id: id, depends_on: on },
});

export const storyCreated = (id: string, n: number, title = `Story ${n}`): StoryEvent => ({
  type: 'story.created',
  data: {
    project_id: P,
    story_id: id,
    key: `PB-${n}`,
    title,
    activity: 'Upload',
    as_a: null,
    i_want: null,
    so_that: null,
    priority: 'should',
    effort: 'M',
    release_order: 1,
    source: 'manual',
    by: 'eddie',
  },
});
export const statusChanged = (
  id: string,
  from: StoryState['status'],
  to: StoryState['status'],
): StoryEvent => ({
  type: 'story.status_changed',
  data: { project_id: P, story_id: id, from, to, by: 'eddie', via: 'mcp' },
});
export const criterion = (
  id: string,
  text: string,
  priority: Criterion['priority'] = 'should',
): Criterion => ({
  criterion_id: id,
  text,
  priority,
  given: null,
  when: null,
  then: null,
  verification: null,
});
export const criteriaAdded = (id: string, ...criteria: Criterion[]): StoryEvent => ({
  type: 'criteria.added',
  data: { project_id: P, story_id: id, criteria, by: 'eddie' },
});

/** A map with a complete vision, one activity "Upload", release 1 and `n` stories s1…sn. */
export const baseMap = (n = 2): MapEvent[] => [
  mapCreated,
  visionDone,
  activity('Upload'),
  release(1),
  ...Array.from({ length: n }, (_, i) => indexed(`s${i + 1}`, i + 1)),
];

export const mapOf = (events: readonly MapEvent[]): MapState =>
  events.reduce(evolveMap, initialMap());
export const storyOf = (events: readonly StoryEvent[]): StoryState =>
  events.reduce(evolveStory, initialStory());

/** Asserts a refusal with `code`, and with `text` in its message when given. */
export const refuses = (
  run: () => unknown,
  code: string,
  text?: string | RegExp,
): Record<string, unknown> => {
  try {
    run();
  } catch (error) {
    assert.ok(isDomainError(error), `expected a DomainError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (typeof text === 'string') assert.ok(error.message.includes(text), error.message);
    else if (text) assert.match(error.message, text);
    return error.details;
  }
  assert.fail(`expected a refusal with ${code}`);
};
