import { describe, it } from 'node:test';
import { deciderSpec } from '../commands/decider-spec.js';
import { isDomainError } from '../../src/commands/errors.js';
import { storyDecider } from '../../src/commands/storymap/story.js';
import {
  commenter,
  criteriaAdded,
  criterion,
  editor,
  owner,
  P,
  statusChanged,
  storyCreated,
  viewer,
} from './fixture.js';

const given = deciderSpec(storyDecider);
const code = (c: string, text?: string) => (error: Error) =>
  isDomainError(error) && error.code === c && (!text || error.message.includes(text));
const s1 = [
  storyCreated('s1', 1),
  criteriaAdded(
    's1',
    criterion('c1', 'Given a photo, then it uploads', 'must'),
    criterion('c2', 'fast'),
  ),
];
const built = [...s1, statusChanged('s1', 'todo', 'done')];

describe('criteria', () => {
  it('adds criteria', () =>
    given(s1)
      .when({ type: 'AddCriteria', data: { criteria: [criterion('c3', 'x')], caller: editor } })
      .then([criteriaAdded('s1', criterion('c3', 'x'))]));
  it('refuses an empty list', () =>
    given(s1)
      .when({ type: 'AddCriteria', data: { criteria: [], caller: editor } })
      .thenThrows(code('invalid_argument')));
  it('a viewer may not add criteria', () =>
    given(s1)
      .when({ type: 'AddCriteria', data: { criteria: [criterion('c3', 'x')], caller: viewer } })
      .thenThrows(code('forbidden', 'edit access')));
  it('refuses a story that does not exist', () =>
    given([])
      .when({ type: 'AddCriteria', data: { criteria: [criterion('c3', 'x')], caller: editor } })
      .thenThrows(code('not_found', 'No story found matching')));
  it('updates one criterion', () =>
    given(s1)
      .when({
        type: 'UpdateCriterion',
        data: { criterion_id: 'c2', priority: 'must', expected_version: 2, caller: editor },
      })
      .then([
        {
          type: 'criterion.updated',
          data: {
            project_id: P,
            story_id: 's1',
            criterion_id: 'c2',
            priority: 'must',
            by: 'eddie',
          },
        },
      ]));
  it('refuses nothing to change', () =>
    given(s1)
      .when({ type: 'UpdateCriterion', data: { criterion_id: 'c2', caller: editor } })
      .thenThrows(code('invalid_argument', 'Nothing to change')));
  it('refuses an unknown criterion id, listing the valid ids', () =>
    given(s1)
      .when({ type: 'UpdateCriterion', data: { criterion_id: 'c9', text: 'x', caller: editor } })
      .thenThrows(
        (e: Error) =>
          isDomainError(e) &&
          e.code === 'not_found' &&
          JSON.stringify(e.details.valid_ids) === '["c1","c2"]',
      ));
  it('refuses a stale expected_version with VERSION_CONFLICT', () =>
    given(s1)
      .when({
        type: 'UpdateCriterion',
        data: { criterion_id: 'c2', text: 'x', expected_version: 1, caller: editor },
      })
      .thenThrows(code('VERSION_CONFLICT')));
  it('replaces every criterion on an unbuilt story with new ids', () =>
    given(s1)
      .when({
        type: 'ReplaceCriteria',
        data: { criteria: [criterion('n1', 'fast')], caller: editor },
      })
      .then([
        {
          type: 'criteria.replaced',
          data: {
            project_id: P,
            story_id: 's1',
            criteria: [criterion('n1', 'fast')],
            removed: ['c1', 'c2'],
            kept: [],
            by: 'eddie',
          },
        },
      ]));
  it('on a built story a criterion worded the same keeps its id (and so its result)', () =>
    given(built)
      .when({
        type: 'ReplaceCriteria',
        data: { criteria: [criterion('n1', '  FAST '), criterion('n2', 'new')], caller: editor },
      })
      .then([
        {
          type: 'criteria.replaced',
          data: {
            project_id: P,
            story_id: 's1',
            criteria: [criterion('c2', '  FAST '), criterion('n2', 'new')],
            removed: ['c1'],
            kept: ['c2'],
            by: 'eddie',
          },
        },
      ]));
  it('refuses a replacement with a stale version', () =>
    given(s1)
      .when({
        type: 'ReplaceCriteria',
        data: { criteria: [], expected_version: 9, caller: editor },
      })
      .thenThrows(code('VERSION_CONFLICT')));
});

describe('notes', () => {
  it('a commenter adds a note', () =>
    given(s1)
      .when({ type: 'AddNote', data: { note: 'hi', caller: commenter } })
      .then([
        {
          type: 'story.note_added',
          data: { project_id: P, story_id: 's1', note: 'hi', by: 'cora' },
        },
      ]));
  it('a viewer may not: the refusal names comment access', () =>
    given(s1)
      .when({ type: 'AddNote', data: { note: 'hi', caller: viewer } })
      .thenThrows(code('forbidden', 'comment access')));
});

describe('founder marks', () => {
  it('the owner marks a todo story ready_for_dev', () =>
    given(s1)
      .when({ type: 'FounderMark', data: { to: 'ready_for_dev', caller: owner } })
      .then([
        {
          type: 'story.status_changed',
          data: {
            project_id: P,
            story_id: 's1',
            from: 'todo',
            to: 'ready_for_dev',
            by: 'olivia',
            via: 'founder_cli',
          },
        },
      ]));
  it('approves a done story', () =>
    given(built)
      .when({ type: 'FounderMark', data: { to: 'approved', caller: owner } })
      .then([
        {
          type: 'story.status_changed',
          data: {
            project_id: P,
            story_id: 's1',
            from: 'done',
            to: 'approved',
            by: 'olivia',
            via: 'founder_cli',
          },
        },
      ]));
  it('refuses approving a story not built', () =>
    given(s1)
      .when({ type: 'FounderMark', data: { to: 'approved', caller: owner } })
      .thenThrows(code('invalid_state', 'done')));
  it('an editor is not the founder', () =>
    given(s1)
      .when({ type: 'FounderMark', data: { to: 'ready_for_dev', caller: editor } })
      .thenThrows(code('forbidden', 'own access')));
});
