import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replayModels } from '../../src/app/audit-models.js';
import { storymap } from '../../src/app/storymap/index.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { encode, type ModelStore } from '../../src/events/index.js';
import { openIntentlog } from '../../src/modules/index.js';
import { pastModels } from '../../src/web/past-models.js';
import { STORYMAP_MODELS } from '../../src/web/storymap/reads.js';
import { photoBook } from './storymap-fixture.js';

const bytes = async (models: ModelStore) =>
  new Map((await models.range<unknown>({ prefix: '' })).map(([k, v]) => [k, encode(v)]));

describe('web view: read models as of a past position', () => {
  it('equal a rebuild from 0 at that position, in any order of requests', async () => {
    const app = await openIntentlog({ store: 'memory', dataDir: '/nonexistent' });
    try {
      const { project_id } = await photoBook(app);
      const sm = storymap(app);
      for (let i = 0; i < 12; i++) {
        await sm.addNote({ project_id, story_id: `PB-${1 + (i % 3)}`, note: `n${i}` }, SYSTEM);
        if (i === 5)
          await sm.founderMark({ project_id, story_id: 'PB-2', to: 'ready_for_dev' }, SYSTEM);
      }
      const head = await app.log.head();
      const projectors = app.projectors.filter((p) => STORYMAP_MODELS.includes(p.name));
      const past = pastModels(app.log, { every: 5, most: 4 });
      // forward like a slider, back, the same again, and a jump past the kept ones
      const order = [3, 9, head - 4, 7, 9, 2, head, 1, head - 1];
      for (const at of order) {
        const got = await bytes(await past.at(at, projectors));
        const want = await bytes(await replayModels(app.log, projectors, at));
        assert.deepEqual(got, want, `as of ${at}`);
        assert.ok(past.keptPositions(projectors).length <= 4, 'the kept stores are bounded');
      }
      assert.ok(
        past.keptPositions(projectors).some((p) => p % 5 === 0),
        'checkpoints are kept on the way',
      );
    } finally {
      await app.close();
    }
  });
});
