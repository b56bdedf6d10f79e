import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  canonicalJson,
  levelEventLog,
  openCatalog,
  openMemoryLevel,
  streamName,
  verifyChain,
  GENESIS_HASH,
} from '../../src/events/index.js';

const records = async () => {
  const log = await levelEventLog(await openMemoryLevel(), openCatalog);
  const s = streamName({ aggregateType: 't', projectId: 'p', aggregateId: 'a' });
  for (let i = 0; i < 5; i++) await log.appendToStream(s, [{ type: 'e', data: { i } }]);
  const raw = await log.readRaw({ after: 0, limit: 100 });
  await log.close();
  return raw;
};

describe('hash chain', () => {
  it('links every event of a project to the one before', async () => {
    const raw = await records();
    assert.equal(raw[0]!.prev_hash, GENESIS_HASH);
    for (let i = 1; i < raw.length; i++) assert.equal(raw[i]!.prev_hash, raw[i - 1]!.hash);
    assert.equal(verifyChain(raw, GENESIS_HASH), undefined);
  });

  it('names the first event whose content was changed', async () => {
    const raw = await records();
    raw[2] = { ...raw[2]!, data: { i: 99 } };
    assert.deepEqual(verifyChain(raw, GENESIS_HASH), {
      event_id: raw[2]!.event_id,
      cursor: 3,
      reason: 'hash does not match content',
    });
  });

  it('names a missing event as a cursor gap', async () => {
    const raw = await records();
    raw.splice(1, 1);
    assert.match(verifyChain(raw, GENESIS_HASH)!.reason, /cursor gap/);
  });

  it('hashes a canonical encoding: key order does not matter', () => {
    assert.equal(canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }), '{"a":[2,{"c":4,"d":3}],"b":1}');
  });
});
