import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { App } from '../../src/app/app.js';
import { openIntentlog } from '../../src/modules/index.js';
import { intentClient, type Envelope } from '../intent/harness.js';
import { fill, mountSmallFs } from './small-fs.js';

const probe = await mountSmallFs();
const skip = typeof probe === 'string' ? probe : false;
if (skip) console.log(`SKIPPED intent disk-full test: ${skip}`);

describe('intent writes on a full disk (issue 40, point 10)', () => {
  it('answer unavailable naming ENOSPC, not LOCK_TIMEOUT, and resume', { skip }, async () => {
    const fs = probe as Exclude<typeof probe, string>;
    const root = await mkdtemp(join(tmpdir(), 'intentlog-root-'));
    const app: App = await openIntentlog({ dataDir: join(fs.dir, 'data') });
    try {
      const c = await intentClient(app, [root]);
      const task_id = String((await c.ok('intent_start_task')).task_id);
      const infer = (n: number) =>
        c.call('intent_add_inference', {
          task_id,
          statement: `guess ${n} ${'x'.repeat(400)}`,
          confidence: 0.5,
          source_ref: { kind: 'agent_turn', event_id: `t-${n}` },
        });
      const filler = await fill(fs.dir);
      let refused: Envelope | undefined;
      for (let n = 0; n < 60 && !refused; n++) {
        const answer = await infer(n);
        if (!answer.ok) refused = answer;
      }
      assert.ok(refused, 'no write failed on a full disk');
      assert.equal(refused.error!.code, 'unavailable', JSON.stringify(refused.error));
      assert.equal(refused.error!.details.cause, 'ENOSPC');
      await rm(filler);
      let resumed: Envelope | undefined;
      for (let attempt = 0; attempt < 100 && !resumed?.ok; attempt++) {
        resumed = await infer(100);
        if (!resumed.ok) await sleep(100);
      }
      assert.equal(resumed?.ok, true, `writes did not resume: ${JSON.stringify(resumed)}`);
      await c.close();
    } finally {
      await app.close().catch(() => {});
      await fs.unmount();
      await rm(root, { recursive: true, force: true });
    }
  });
});
