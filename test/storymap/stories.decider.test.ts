import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { decideCancel } from '../../src/commands/storymap/cancel.js';
import { decideCreateStories, type NewStory } from '../../src/commands/storymap/create-stories.js';
import {
  decideSetSequence,
  decideUpdateStories,
  type StoryRow,
} from '../../src/commands/storymap/update-stories.js';
import { initialStory } from '../../src/commands/storymap/story-state.js';
import {
  baseMap,
  criterion,
  depends,
  editor,
  indexed,
  mapCreated,
  mapOf,
  owner,
  P,
  refuses,
  release,
  storyCreated,
  storyOf,
  viewer,
} from './fixture.js';

const row = (title: string, extra: Partial<NewStory> = {}): NewStory => ({
  story_id: `new-${title}`,
  title,
  criteria: [],
  ...extra,
});
const create = (stories: NewStory[], map = mapOf(baseMap(2)), force = false) =>
  decideCreateStories(
    { stories, force, source: 'manual', caller: editor },
    map,
    stories.map(initialStory),
  );

describe('create_stories', () => {
  it('creates stories with keys from the map’s counter, criteria and a new activity', () => {
    const decided = create([
      row('Upload photos', { activity: 'Share', criteria: [criterion('c1', 'works', 'must')] }),
    ]);
    assert.deepEqual(decided.map, [
      {
        type: 'storymap.activity_added',
        data: { project_id: P, activity_id: 'activity-2', name: 'Share', position: 1 },
      },
      {
        type: 'storymap.story_indexed',
        data: {
          project_id: P,
          story_id: 'new-Upload photos',
          key: 'PB-3',
          title: 'Upload photos',
          cancelled: false,
        },
      },
    ]);
    assert.deepEqual(
      decided.stories[0]!.map((e) => e.type),
      ['story.created', 'criteria.added'],
    );
    const created = decided.stories[0]![0]!.data;
    assert.equal('key' in created ? created.key : undefined, 'PB-3');
  });
  it('refuses without a complete vision: constitution_required', () => {
    const details = refuses(() => create([row('A')], mapOf([mapCreated])), 'constitution_required');
    assert.deepEqual(details.unanswered, ['users', 'problem', 'switch', 'first', 'proof']);
  });
  it('force skips the vision gate', () =>
    assert.equal(create([row('A')], mapOf([mapCreated]), true).stories[0]!.length, 1));
  it('skips a title matching a live story, ignoring case, and a repeat in the batch', () => {
    const decided = create([row('story 1'), row('New'), row('NEW')]);
    assert.deepEqual(decided.skipped, ['story 1', 'NEW']);
    assert.deepEqual(
      decided.stories.map((s) => s.length),
      [0, 1, 0],
    );
  });
  it('a cancelled story’s title is free again', () => {
    const map = mapOf([...baseMap(1), indexed('s1', 1, 'Story 1', true)]);
    assert.deepEqual(create([row('Story 1')], map).skipped, []);
  });
  it('creates the next release in sequence, and Go live (1000)', () => {
    const decided = create([
      row('A', { release_order: 2 }),
      row('B', { release_order: 3 }),
      row('C', { release_order: 1000 }),
    ]);
    assert.deepEqual(
      decided.map.filter((e) => e.type === 'storymap.release_created').map((e) => e.data),
      [
        { project_id: P, release_order: 2, label: 'Release 2' },
        { project_id: P, release_order: 3, label: 'Release 3' },
        { project_id: P, release_order: 1000, label: 'Go live' },
      ],
    );
  });
  it('refuses a release jump, naming the next free number; nothing is decided', () => {
    const details = refuses(
      () => create([row('A'), row('B', { release_order: 4 })]),
      'invalid_argument',
      'next available release number is 2',
    );
    assert.equal(details.next_available, 2);
  });
  it('a viewer may not create stories', () =>
    void refuses(
      () =>
        decideCreateStories(
          { stories: [row('A')], force: false, source: 'manual', caller: viewer },
          mapOf(baseMap()),
          [initialStory()],
        ),
      'forbidden',
      'edit access',
    ));
});

const twoStories = () => [storyOf([storyCreated('s1', 1)]), storyOf([storyCreated('s2', 2)])];
const update = (rows: StoryRow[], mapEvents = baseMap(2), stories = twoStories()) =>
  decideUpdateStories({ rows, caller: editor }, mapOf(mapEvents), stories);

describe('update_stories', () => {
  it('revises fields, changes status and sets dependencies and sequence in one batch', () => {
    const decided = update([
      {
        story_id: 's1',
        expected_version: 1,
        status: 'in_progress',
        changes: { title: 'Upload many' },
        build_sequence: 1,
      },
      { story_id: 's2', changes: {}, dependencies: ['s1'] },
    ]);
    assert.deepEqual(
      decided.stories.map((s) => s.map((e) => e.type)),
      [['story.revised', 'story.status_changed', 'story.plan_changed'], ['story.plan_changed']],
    );
    assert.deepEqual(
      decided.map.map((e) => e.type),
      ['storymap.story_indexed', 'storymap.build_sequence_set', 'storymap.dependencies_set'],
    );
    assert.equal(decided.dependencies_updated, 1);
  });
  it('a dependency or build-sequence change moves the story’s version', () => {
    const decided = update([
      { story_id: 's1', changes: {}, build_sequence: 2 },
      { story_id: 's2', changes: {}, dependencies: ['s1', 's1'] },
    ]);
    assert.deepEqual(
      decided.stories.map((events) => events.map((e) => e.data)),
      [
        [{ project_id: P, story_id: 's1', build_sequence: 2, by: 'eddie' }],
        [{ project_id: P, story_id: 's2', depends_on: ['s1'], by: 'eddie' }],
      ],
    );
    const [s1, s2] = twoStories();
    const after = [
      storyOf([storyCreated('s1', 1), ...decided.stories[0]!]),
      storyOf([storyCreated('s2', 2), ...decided.stories[1]!]),
    ];
    assert.deepEqual(
      after.map((s) => s.version),
      [s1!.version + 1, s2!.version + 1],
    );
    // a client that read the story before the change holds a stale version now
    const details = refuses(
      () =>
        update([{ story_id: 's2', expected_version: 1, changes: { title: 'x' } }], baseMap(2), [
          after[1]!,
        ]),
      'VERSION_CONFLICT',
    );
    assert.deepEqual(details.stale_stories, [
      { id: 's2', key: 'PB-2', expected_version: 1, current_version: 2 },
    ]);
  });
  it('an unchanged dependency set or sequence writes nothing and keeps the version', () => {
    const map = [...baseMap(2), depends('s2', 's1')];
    const decided = update([{ story_id: 's2', changes: {}, dependencies: ['s1'] }], map, [
      twoStories()[1]!,
    ]);
    assert.deepEqual(decided.stories, [[]]);
    assert.deepEqual(decided.map, []);
  });
  it('one stale row refuses the whole batch with VERSION_CONFLICT and stale_stories', () => {
    const details = refuses(
      () =>
        update([
          { story_id: 's1', expected_version: 1, changes: { title: 'x' } },
          { story_id: 's2', expected_version: 7, changes: { title: 'y' } },
        ]),
      'VERSION_CONFLICT',
    );
    assert.deepEqual(details.stale_stories, [
      { id: 's2', key: 'PB-2', expected_version: 7, current_version: 1 },
    ]);
  });
  for (const status of ['ready_for_dev', 'approved'] as const)
    it(`refuses ${status}: a person sets it`, () =>
      void refuses(
        () => update([{ story_id: 's1', status, changes: {} }]),
        'invalid_argument',
        'set by a person',
      ));
  it('refuses an unknown activity, listing the valid names', () => {
    const details = refuses(
      () => update([{ story_id: 's1', changes: { activity: 'Nope' } }]),
      'invalid_argument',
      'no activity named',
    );
    assert.deepEqual(details.valid_activities, ['Upload']);
  });
  it('moves a story to an activity named in another case', () => {
    const decided = update([{ story_id: 's1', changes: { activity: 'upload', priority: 'must' } }]);
    assert.deepEqual(decided.stories[0]![0]!.data, {
      project_id: P,
      story_id: 's1',
      changes: { priority: 'must' },
      by: 'eddie',
    });
  });
  it('refuses a release out of sequence, naming the next', () =>
    void refuses(
      () => update([{ story_id: 's1', changes: { release_order: 3 } }]),
      'invalid_argument',
      'next available release number is 2',
    ));
  it('creates the next release when a story moves into it', () =>
    assert.deepEqual(
      update([{ story_id: 's1', changes: { release_order: 2 } }]).map[0],
      release(2),
    ));
  it('refuses a dependency outside the project', () =>
    void refuses(
      () => update([{ story_id: 's1', changes: {}, dependencies: ['elsewhere'] }]),
      'invalid_argument',
      'not a story of this project',
    ));
  it('refuses a cycle, naming it by keys', () => {
    const details = refuses(
      () =>
        update(
          [{ story_id: 's1', changes: {}, dependencies: ['s2'] }],
          [...baseMap(2), depends('s2', 's1')],
        ),
      'invalid_argument',
      'Dependency cycle',
    );
    assert.deepEqual(details.cycle, ['PB-1', 'PB-2', 'PB-1']);
  });
  it('refuses a cycle made by two rows of one batch', () =>
    void refuses(
      () =>
        update([
          { story_id: 's1', changes: {}, dependencies: ['s2'] },
          { story_id: 's2', changes: {}, dependencies: ['s1'] },
        ]),
      'invalid_argument',
      'Dependency cycle',
    ));
  it('refuses a story that does not exist', () =>
    void refuses(
      () => update([{ story_id: 'zz', changes: {} }], baseMap(2), [initialStory()]),
      'not_found',
      'No story found matching "zz"',
    ));
});

describe('founder sequence', () => {
  const s2 = () => storyOf([storyCreated('s2', 2)]);
  const sequence = (build_sequence: number | null, map = baseMap(2), caller = owner) =>
    decideSetSequence({ story_ref: 'PB-2', build_sequence, caller }, mapOf(map), s2());
  it('sets the place on the map and moves the story’s version', () => {
    const decided = sequence(3);
    assert.deepEqual(decided.map, [
      {
        type: 'storymap.build_sequence_set',
        data: { project_id: P, story_id: 's2', build_sequence: 3 },
      },
    ]);
    assert.deepEqual(decided.stories, [
      [
        {
          type: 'story.plan_changed',
          data: { project_id: P, story_id: 's2', build_sequence: 3, by: 'olivia' },
        },
      ],
    ]);
    assert.equal(storyOf([storyCreated('s2', 2), ...decided.stories[0]!]).version, 2);
  });
  it('the same place again writes nothing', () => {
    const map = [...baseMap(2), ...sequence(3).map];
    assert.deepEqual(sequence(3, map), { map: [], stories: [[]] });
  });
  it('refuses a place below 1', () => void refuses(() => sequence(0), 'invalid_argument'));
  it('a viewer may not sequence: the refusal names the capability', () =>
    void refuses(() => sequence(1, baseMap(2), viewer), 'forbidden', 'edit access'));
});

describe('cancel_story / uncancel_story', () => {
  const s1 = [storyCreated('s1', 1)];
  it('cancels, keeping the status, and frees the title on the map', () => {
    const decided = decideCancel(
      { cancel: true, reason: 'later', caller: editor },
      mapOf(baseMap(1)),
      [storyOf(s1)],
    );
    assert.deepEqual(decided.stories[0], [
      {
        type: 'story.cancelled',
        data: { project_id: P, story_id: 's1', reason: 'later', status: 'todo', by: 'eddie' },
      },
    ]);
    assert.deepEqual(decided.map, [indexed('s1', 1, 'Story 1', true)]);
  });
  it('refuses cancelling twice', () => {
    const cancelled = storyOf([
      ...s1,
      {
        type: 'story.cancelled',
        data: { project_id: P, story_id: 's1', reason: null, status: 'todo', by: 'eddie' },
      },
    ]);
    refuses(
      () =>
        decideCancel({ cancel: true, reason: null, caller: owner }, mapOf(baseMap(1)), [cancelled]),
      'invalid_state',
      'already cancelled',
    );
  });
  it('refuses uncancelling a live story', () =>
    void refuses(
      () =>
        decideCancel({ cancel: false, reason: null, caller: owner }, mapOf(baseMap(1)), [
          storyOf(s1),
        ]),
      'invalid_state',
      "isn't cancelled",
    ));
});
