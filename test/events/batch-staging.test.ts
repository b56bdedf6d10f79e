import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { openMemoryLevel, streamName, type LevelDb } from '../../src/events/index.js';
import {
  newStaged,
  prefetch,
  type DurableHeads,
  type Pending,
} from '../../src/events/level/batch-staging.js';
import type { LevelReader } from '../../src/events/level/level-reader.js';

const name = streamName({ aggregateType: 't', projectId: 'p', aggregateId: 'x' });
const pending = (): Pending => ({
  appends: [{ streamName: name, events: [{ type: 'thing.done', data: { i: 1 } }] }],
  options: { appendId: 'append-1' },
  resolve: () => {},
  reject: () => {},
});
const heads = (): DurableHeads => ({ streams: new Map(), projects: new Map() });
const reader = {
  streamVersion: async () => 3,
  projectHead: async () => ({ cursor: 7, hash: 'h'.repeat(64) }),
} as unknown as LevelReader;

describe('prefetching what a batch does not know', () => {
  it('reads heads off the reader and records in one getMany', async () => {
    const staged = newStaged(undefined, 0);
    await prefetch(await openMemoryLevel(), reader, heads(), [pending()], staged);
    assert.equal(staged.streams.get(name), 3);
    assert.deepEqual(staged.projects.get('p'), { cursor: 7, hash: 'h'.repeat(64) });
    assert.ok(staged.appends.has('append-1'));
    assert.equal(staged.appends.get('append-1'), undefined);
  });

  it('leaves nothing behind when a lookup fails: the next group of the batch looks again', async () => {
    const db: LevelDb = await openMemoryLevel();
    (db as { getMany: unknown }).getMany = () => Promise.reject(new Error('disk gone'));
    const staged = newStaged(undefined, 0);
    await assert.rejects(prefetch(db, reader, heads(), [pending()], staged), /disk gone/);
    assert.equal(staged.streams.has(name), false);
    assert.equal(staged.projects.has('p'), false);
    assert.equal(staged.appends.has('append-1'), false);
  });
});
