import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { newEventId, newId } from '../../src/events/index.js';

const EVENT_ID = /^evt_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// Ids draw their randomness from a pool of 1,024 words, refilled when spent (one to three words
// an id): 20,000 ids go through the pool many times over.
const COUNT = 20_000;

describe('ids', () => {
  const ids = Array.from({ length: COUNT }, () => newEventId());

  it('are UUIDv7 with the evt_ prefix', () => {
    for (const id of ids) assert.match(id, EVENT_ID);
  });

  it('are unique', () => {
    assert.equal(new Set(ids).size, COUNT);
  });

  it('sort, as plain strings, in the order they were made', () => {
    for (let i = 1; i < ids.length; i++)
      assert.ok(ids[i - 1]! < ids[i]!, `id ${i - 1} does not sort before id ${i}`);
  });

  it('take fresh random bits every time the pool is refilled', () => {
    // The last 32 bits are one fresh word each. Reusing a spent pool would repeat them every
    // 1,024 words; by chance, 20,000 draws of 32 bits collide about 0.05 times.
    const tails = new Set(ids.map((id) => id.slice(-8)));
    assert.ok(tails.size > COUNT - 20, `only ${tails.size} distinct random tails`);
  });

  it('newId puts its prefix before the UUIDv7', () => {
    const id = newId('append');
    assert.ok(id.startsWith('append_'));
    assert.match(
      id,
      /^append_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
