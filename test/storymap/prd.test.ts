import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parsePrd } from '../../src/commands/storymap/prd.js';

const shape = (text: string) => parsePrd(text).map((a) => [a.name, a.stories.map((s) => s.title)]);

describe('import_prd rules (docs in src/commands/storymap/prd.ts)', () => {
  it('a lone first top heading over deeper ones is the title, not an activity', () => {
    assert.deepEqual(shape('# Book\n## Share\n- Link\n## Print\n- Order'), [
      ['Share', ['Link']],
      ['Print', ['Order']],
    ]);
  });
  it('headings of one level are all activities; so is a single heading', () => {
    assert.deepEqual(shape('# Share\n- Link\n# Print\n- Order'), [
      ['Share', ['Link']],
      ['Print', ['Order']],
    ]);
    assert.deepEqual(shape('## Share\n- Link'), [['Share', ['Link']]]);
  });
  it('a top heading after deeper ones is an activity, not a title', () => {
    assert.deepEqual(shape('## Share\n- Link\n# Print\n- Order'), [
      ['Share', ['Link']],
      ['Print', ['Order']],
    ]);
  });
  it('stories before any heading go to General; empty activities are dropped', () => {
    assert.deepEqual(shape('- Early\n## Empty\n## Full\n* One\n+ Two\n1) Three\n- [x] Four'), [
      ['General', ['Early']],
      ['Full', ['One', 'Two', 'Three', 'Four']],
    ]);
  });
  it('Given/When/Then (any case, colon, list marker) make criteria; And continues; a new Given starts the next', () => {
    const [a] = parsePrd(
      [
        '## Pay',
        '- Pay by card',
        '  given: a cart',
        '  - When I pay',
        '  and confirm',
        '  THEN it is paid',
        '  Given a declined card',
        '  When I pay',
        '  Then I see why',
        '  - receipts are e-mailed',
      ].join('\r\n'),
    );
    assert.deepEqual(
      a!.stories[0]!.acceptance_criteria.map((c) => [c.text, c.priority]),
      [
        ['Given a cart, when I pay and confirm, then it is paid', 'should'],
        ['Given a declined card, when I pay, then I see why', 'should'],
        ['receipts are e-mailed', 'should'],
      ],
    );
  });
  it('lines inside fenced code are left out, headings there too', () => {
    assert.deepEqual(shape('# Book\n```\n# Not a heading\n- not a story\n```\n## Share\n- Link'), [
      ['Share', ['Link']],
    ]);
    assert.deepEqual(shape('~~~md\n- hidden\n```\n- still hidden\n~~~\n- shown'), [
      ['General', ['shown']],
    ]);
  });
  it('paragraphs and plain text give no stories', () => {
    assert.deepEqual(parsePrd('Just some prose.\nNo lists here.'), []);
  });
  // no state between calls (a /g regex's lastIndex, a shared parser) may change a proposal
  it('is deterministic: the same text always gives the same proposal', () =>
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            '# T',
            '## A',
            '- s',
            '  Given g',
            '  When w',
            '  Then t',
            '  - c',
            'x',
            '```',
          ),
          { maxLength: 30 },
        ),
        (lines) => {
          const text = lines.join('\n');
          assert.deepEqual(parsePrd(text), parsePrd(text));
        },
      ),
    ));
});
