import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { modelKey, modelKeyPrefix } from '../../src/projections/projector.js';

// Keys are stored: a part kept as it is must come out exactly as percent-encoding would give it.
const part = fc.oneof(
  fc.string({ unit: 'grapheme-ascii' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', 'a/b', 'PB-42', "it's (ok)!~*", 'a b', '%2F', '\u0000', 'é'),
);

describe('model keys', () => {
  it('are the parts percent-encoded and joined by /, whatever the parts', () => {
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), (parts) => {
        assert.equal(modelKey(...parts), parts.map(encodeURIComponent).join('/'));
        assert.equal(modelKeyPrefix(...parts), `${parts.map(encodeURIComponent).join('/')}/`);
      }),
      { numRuns: 2000 },
    );
  });
});
