import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { parseCriteriaOrRefuse } from '../../src/commands/storymap/criteria.js';
import { parsePrd } from '../../src/commands/storymap/prd.js';
import { refuses } from './fixture.js';

describe('criterion input', () => {
  it('takes strings and objects, defaulting priority to should', () =>
    assert.deepEqual(
      parseCriteriaOrRefuse([
        '  works  ',
        {
          text: 'fast',
          priority: 'must',
          given: 'a',
          verification: { method: 'executable', command: 'npm test' },
        },
      ]),
      [
        {
          text: 'works',
          priority: 'should',
          given: null,
          when: null,
          then: null,
          verification: null,
        },
        {
          text: 'fast',
          priority: 'must',
          given: 'a',
          when: null,
          then: null,
          verification: {
            method: 'executable',
            command: 'npm test',
            check_prompt: null,
            expected: null,
          },
        },
      ],
    ));
  it('accepts a criterion read back from get_story', () =>
    assert.equal(
      parseCriteriaOrRefuse([
        {
          id: 'c1',
          text: 't',
          priority: 'could',
          given: null,
          when: null,
          then: null,
          verification: null,
          last_result: null,
          test_count: 0,
        },
      ]).length,
      1,
    ));
  it('reports every bad field of a batch at once, naming what each accepts', () => {
    const details = refuses(
      () =>
        parseCriteriaOrRefuse([
          '',
          { priority: 'high' },
          { text: 'x', verification: { method: 'vibes' }, colour: 'red' },
          7,
        ]),
      'invalid_argument',
      'nothing was written',
    );
    assert.deepEqual(details.problems, [
      { field: 'criteria[0]', accepts: 'a non-empty string or a criterion object' },
      { field: 'criteria[1].text', accepts: 'a non-empty string (required)' },
      { field: 'criteria[1].priority', accepts: 'must, should or could' },
      { field: 'criteria[2].colour', accepts: 'nothing: not a criterion field' },
      {
        field: 'criteria[2].verification.method',
        accepts: 'executable, agent_self_check, visual_render or founder_confirm',
      },
      { field: 'criteria[3]', accepts: 'a string or an object with text' },
    ]);
  });
});

describe('import_prd (Markdown structure, no model)', () => {
  it('headings are activities, list items stories, Given/When/Then lines criteria', () => {
    const prd = [
      '# Photo Book',
      '## Collect',
      '- Upload photos',
      '  Given a photo',
      '  When I upload it',
      '  Then it shows',
      '- Tag people',
      '  - faces are suggested',
      '## Buy',
      '1. Pay by card',
    ].join('\n');
    const activities = parsePrd(prd);
    assert.deepEqual(
      activities.map((a) => [a.name, a.stories.map((s) => s.title)]),
      [
        ['Collect', ['Upload photos', 'Tag people']],
        ['Buy', ['Pay by card']],
      ],
    );
    const [upload, tag] = activities[0]!.stories;
    assert.deepEqual(
      upload!.acceptance_criteria.map((c) => [c.text, c.given, c.when, c.then]),
      [['Given a photo, when I upload it, then it shows', 'a photo', 'I upload it', 'it shows']],
    );
    assert.deepEqual(
      tag!.acceptance_criteria.map((c) => c.text),
      ['faces are suggested'],
    );
  });
});
