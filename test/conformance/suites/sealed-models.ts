import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sealed, stream, withLog, type OpenStore } from '../harness.js';

export const sealedModelTests = (open: OpenStore): void => {
  describe('sealed read-model values', () => {
    it('read back opened; once the subject is shredded they read as absent', () =>
      withLog(open, async (log) => {
        await log.appendToStream(stream('p', 'a'), [
          sealed('s1', 'SECRET-1'),
          sealed('s2', 'SECRET-2'),
        ]);
        await log.models.write([
          { type: 'put', key: 'm/1', value: { text: 'SECRET-1' }, seal: 's1' },
          { type: 'put', key: 'm/2', value: { text: 'SECRET-2' }, seal: 's2' },
          { type: 'put', key: 'm/3', value: { plain: true } },
        ]);
        assert.deepEqual(await log.models.get('m/1'), { text: 'SECRET-1' });
        assert.deepEqual(await log.models.getMany(['m/1', 'm/2', 'm/3', 'm/4']), [
          { text: 'SECRET-1' },
          { text: 'SECRET-2' },
          { plain: true },
          undefined,
        ]);
        await log.shred('s1');
        assert.equal(await log.models.get('m/1'), undefined);
        assert.deepEqual(await log.models.range({ prefix: 'm/' }), [
          ['m/2', { text: 'SECRET-2' }],
          ['m/3', { plain: true }],
        ]);
        // a subject with no key (shredded, or never sealed under) stores nothing
        await log.models.write([{ type: 'put', key: 'm/1', value: 'SECRET-again', seal: 's1' }]);
        assert.equal(await log.models.get('m/1'), undefined);
      }));
  });
};
