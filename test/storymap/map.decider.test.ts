import { describe, it } from 'node:test';
import { deciderSpec } from '../commands/decider-spec.js';
import { isDomainError } from '../../src/commands/errors.js';
import { mapDecider, type MapCommand } from '../../src/commands/storymap/map.js';
import type { MapEvent } from '../../src/commands/storymap/map-state.js';
import {
  baseMap,
  commenter,
  editor,
  mapCreated,
  owner,
  P,
  release,
  viewer,
  visionDone,
} from './fixture.js';

const given = deciderSpec(mapDecider);
const code = (c: string, text?: string) => (error: Error) =>
  isDomainError(error) && error.code === c && (!text || error.message.includes(text));

const logged = (id: string): MapEvent => ({
  type: 'storymap.decision_logged',
  data: {
    project_id: P,
    decision_id: id,
    title: 'Use SQLite',
    description: 'Small',
    category: 'technical',
    story_id: null,
    by: 'eddie',
  },
});

describe('story map: create, archive, restore', () => {
  const create: MapCommand = {
    type: 'CreateMap',
    data: {
      project_id: P,
      map_id: P,
      name: 'Photo Book',
      idea: 'Print books',
      key_prefix: 'PB',
      client: null,
      caller: owner,
    },
  };
  it('creates the map', () => given([]).when(create).then([mapCreated]));
  it('refuses a second map', () =>
    given([mapCreated]).when(create).thenThrows(code('invalid_state')));
  it('the owner archives, then restores', () => {
    given([mapCreated])
      .when({ type: 'ArchiveMap', data: { caller: owner } })
      .then([{ type: 'storymap.archived', data: { project_id: P, by: 'olivia' } }]);
    given([mapCreated, { type: 'storymap.archived', data: { project_id: P, by: 'olivia' } }])
      .when({ type: 'RestoreMap', data: { caller: owner } })
      .then([{ type: 'storymap.restored', data: { project_id: P, by: 'olivia' } }]);
  });
  it('an editor may not archive: the refusal names the capability', () =>
    given([mapCreated])
      .when({ type: 'ArchiveMap', data: { caller: editor } })
      .thenThrows(code('forbidden', 'own access')));
  it('restoring a project that is not archived is refused', () =>
    given([mapCreated])
      .when({ type: 'RestoreMap', data: { caller: owner } })
      .thenThrows(code('invalid_state')));
  it('no map: "No story map found for this project"', () =>
    given([])
      .when({ type: 'ArchiveMap', data: { caller: owner } })
      .thenThrows(code('not_found', 'No story map found for this project')));
  it('an archived project refuses writes', () =>
    given([mapCreated, { type: 'storymap.archived', data: { project_id: P, by: 'olivia' } }])
      .when({ type: 'SetVision', data: { answers: { users: 'x' }, caller: owner } })
      .thenThrows(code('invalid_state', 'restore_project')));
});

describe('story map: vision', () => {
  const answer = (answers: Record<string, string>, caller = editor): MapCommand => ({
    type: 'SetVision',
    data: { answers, caller },
  });
  it('saves the answers given, leaving the others untouched', () =>
    given([mapCreated])
      .when(answer({ users: 'parents' }))
      .then([
        {
          type: 'storymap.vision_answered',
          data: { project_id: P, answers: { users: 'parents' }, source: 'answers', by: 'eddie' },
        },
      ]));
  it('an unchanged answer writes nothing', () =>
    given([mapCreated, visionDone])
      .when(answer({ users: 'parents' }))
      .thenNothingHappened());
  it('refuses neither answers nor report', () =>
    given([mapCreated])
      .when({ type: 'SetVision', data: { caller: editor } })
      .thenThrows(code('invalid_argument')));
  it('refuses an empty answer', () =>
    given([mapCreated])
      .when(answer({ proof: ' ' }))
      .thenThrows(code('invalid_argument', 'answers.proof')));
  it('a viewer may not write', () =>
    given([mapCreated])
      .when(answer({ users: 'x' }, viewer))
      .thenThrows(code('forbidden', 'edit access')));
  it('refuses an unreadable report with invalid_report', () =>
    given([mapCreated])
      .when({ type: 'SetVision', data: { report: 'just words', caller: editor } })
      .thenThrows(code('invalid_report')));
  it('derives users from a report', () =>
    given([mapCreated])
      .when({
        type: 'SetVision',
        data: { report: '## Users\n- teachers\n- pupils\n', caller: editor },
      })
      .then([
        {
          type: 'storymap.vision_answered',
          data: {
            project_id: P,
            answers: { users: 'teachers; pupils' },
            source: 'report',
            by: 'eddie',
          },
        },
      ]));
  it('a report overwriting an answer writes nothing until confirmed', () => {
    given([mapCreated, visionDone])
      .when({ type: 'SetVision', data: { report: '## Users\nteachers', caller: editor } })
      .thenNothingHappened();
    given([mapCreated, visionDone])
      .when({
        type: 'SetVision',
        data: { report: '## Users\nteachers', confirm: true, caller: editor },
      })
      .then([
        {
          type: 'storymap.vision_answered',
          data: { project_id: P, answers: { users: 'teachers' }, source: 'report', by: 'eddie' },
        },
      ]);
  });
});

describe('story map: releases', () => {
  it('renames a release', () =>
    given([mapCreated, release(1)])
      .when({ type: 'RenameRelease', data: { release_order: 1, label: 'MVP', caller: editor } })
      .then([
        {
          type: 'storymap.release_renamed',
          data: { project_id: P, release_order: 1, previous_label: 'Release 1', label: 'MVP' },
        },
      ]));
  it('refuses a release that does not exist yet', () =>
    given([mapCreated])
      .when({ type: 'RenameRelease', data: { release_order: 2, label: 'MVP', caller: editor } })
      .thenThrows(code('not_found', "doesn't exist yet")));
});

describe('story map: decisions', () => {
  const amend = (ref: string, fields: Record<string, string>): MapCommand => ({
    type: 'AmendDecision',
    data: { decision_ref: ref, ...fields, caller: editor },
  });
  const retracted: MapEvent = {
    type: 'storymap.decision_retracted',
    data: { project_id: P, decision_id: 'd-123456', reason: null, by: 'eddie' },
  };
  it('logs a decision linked to a story by key', () =>
    given(baseMap(1))
      .when({
        type: 'LogDecision',
        data: {
          decision_id: 'd-1',
          title: 'Use SQLite',
          description: 'Small',
          category: 'technical',
          story_ref: 'pb-1',
          caller: editor,
        },
      })
      .then([
        {
          type: 'storymap.decision_logged',
          data: {
            project_id: P,
            decision_id: 'd-1',
            title: 'Use SQLite',
            description: 'Small',
            category: 'technical',
            story_id: 's1',
            by: 'eddie',
          },
        },
      ]));
  it('a commenter may not log a decision', () =>
    given(baseMap(1))
      .when({
        type: 'LogDecision',
        data: {
          decision_id: 'd-1',
          title: 't',
          description: 'd',
          category: 'technical',
          story_ref: null,
          caller: commenter,
        },
      })
      .thenThrows(code('forbidden', 'edit access')));
  it('amends by prefix', () =>
    given([mapCreated, logged('d-123456')])
      .when(amend('d-12', { title: 'Use Postgres' }))
      .then([
        {
          type: 'storymap.decision_amended',
          data: { project_id: P, decision_id: 'd-123456', title: 'Use Postgres', by: 'eddie' },
        },
      ]));
  it('refuses an amendment with nothing to change', () =>
    given([mapCreated, logged('d-123456')])
      .when(amend('d-123456', {}))
      .thenThrows(code('invalid_argument', 'Nothing to change')));
  it('refuses an unknown id', () =>
    given([mapCreated, logged('d-123456')])
      .when(amend('zzzz', { title: 'x' }))
      .thenThrows(code('not_found')));
  it('refuses amending a retracted decision', () =>
    given([mapCreated, logged('d-123456'), retracted])
      .when(amend('d-123456', { title: 'x' }))
      .thenThrows(code('invalid_state', 'retracted')));
  it('retracts, keeping the record', () =>
    given([mapCreated, logged('d-123456')])
      .when({
        type: 'RetractDecision',
        data: { decision_ref: 'd-123456', reason: null, caller: editor },
      })
      .then([retracted]));
  it('refuses retracting twice', () =>
    given([mapCreated, logged('d-123456'), retracted])
      .when({
        type: 'RetractDecision',
        data: { decision_ref: 'd-123456', reason: null, caller: editor },
      })
      .thenThrows(code('invalid_state', 'already retracted')));
});

describe('story map: build sequence', () => {
  it('sets and clears a story’s place', () => {
    given(baseMap(2))
      .when({
        type: 'SetBuildSequence',
        data: { story_ref: 'PB-2', build_sequence: 1, caller: owner },
      })
      .then([
        {
          type: 'storymap.build_sequence_set',
          data: { project_id: P, story_id: 's2', build_sequence: 1 },
        },
      ]);
  });
  it('refuses an unknown story: "No story found matching"', () =>
    given(baseMap(2))
      .when({
        type: 'SetBuildSequence',
        data: { story_ref: 'PB-9', build_sequence: 1, caller: owner },
      })
      .thenThrows(code('not_found', 'No story found matching "PB-9"')));
});
