import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  chainHash,
  GENESIS_HASH,
  levelEventLog,
  openCatalog,
  openMemoryLevel,
  streamName,
  verifyChain,
  type StoredRecord,
} from '../../src/events/index.js';
import { openPostgresEventLog } from '../../src/events/postgres/index.js';
import { ImportRefusedError, type TransferableLog } from '../../src/events/record-import.js';
import { dropSchema, freshSchema, storeUrl } from './pg-test-db.js';

const schemas: string[] = [];
const stores: Record<string, () => Promise<TransferableLog>> = {
  leveldb: async () => levelEventLog(await openMemoryLevel(), openCatalog),
  postgresql: () => {
    const schema = freshSchema('import');
    schemas.push(schema);
    return openPostgresEventLog(storeUrl(schema), openCatalog);
  },
};
after(async () => {
  for (const schema of schemas) await dropSchema(schema);
});

const stream = (project: string, id: string) =>
  streamName({ aggregateType: 'note', projectId: project, aggregateId: id });

const note = (text: string, seal?: string) => ({
  type: 'note.added',
  data: { text },
  ...(seal ? { metadata: { seal } } : {}),
});

/** A source log with two projects, a sealed subject, and its records and keys. */
const sourceRecords = async () => {
  const source = await stores.leveldb!();
  try {
    await source.appendToStream(stream('a', '1'), [note('a1'), note('a2', 'secret')]);
    await source.appendToStream(stream('b', '1'), [note('b1')]);
    await source.appendToStream(stream('a', '1'), [note('a3')]);
    const records = await source.readRaw({ after: 0, limit: 100 });
    return { records, keys: await source.contentKeys(['secret']) };
  } finally {
    await source.close();
  }
};

const withStore = async (name: string, body: (log: TransferableLog) => Promise<void>) => {
  const log = await stores[name]!();
  try {
    await body(log);
  } finally {
    await log.close();
  }
};

for (const name of Object.keys(stores))
  describe(`importRecords on ${name}`, () => {
    it('writes records as they are; appends continue after them', () =>
      withStore(name, async (log) => {
        const { records, keys } = await sourceRecords();
        await log.importRecords(records, keys);
        assert.deepEqual(await log.readRaw({ after: 0, limit: 100 }), records);
        assert.equal(await log.head(), records.length);
        const [opened] = await log.readAll({ after: 1, limit: 1 });
        assert.deepEqual(opened?.data, { text: 'a2' });

        const next = await log.appendToStream(stream('a', '1'), [note('a4')], {
          expectedStreamVersion: 3n,
        });
        assert.equal(next.lastEventGlobalPosition, BigInt(records.length + 1));
        assert.equal(next.lastCursor, 4);
        const a = (await log.readRaw({ after: 0, limit: 100 })).filter((r) => r.project_id === 'a');
        assert.equal(verifyChain(a, GENESIS_HASH), undefined);
      }));

    it('refuses records that do not continue the log, and writes none of them', () =>
      withStore(name, async (log) => {
        const { records, keys } = await sourceRecords();
        await assert.rejects(log.importRecords(records.slice(1), keys), ImportRefusedError);
        const tampered: StoredRecord[] = records.map((r, i) =>
          i === 2 ? { ...r, data: { text: 'changed' } } : r,
        );
        await assert.rejects(log.importRecords(tampered, keys), /hash does not match content/);
        assert.equal(await log.head(), 0);
        await log.importRecords(records.slice(0, 2), keys);
        await assert.rejects(log.importRecords(records.slice(0, 2), keys), ImportRefusedError);
        await log.importRecords(records.slice(2), keys);
        assert.equal(await log.head(), records.length);
      }));

    it('refuses a content key other than the one the log holds for the subject', () =>
      withStore(name, async (log) => {
        await log.appendToStream(stream('c', '1'), [note('c1', 'secret')]);
        const { records, keys } = await sourceRecords();
        const project = records.filter((r) => r.project_id === 'a');
        let position = 1;
        let prev = GENESIS_HASH;
        const moved = project.map((r) => {
          const { hash: _h, ...rest } = { ...r, global_position: ++position, prev_hash: prev };
          prev = chainHash(rest);
          return { ...rest, hash: prev };
        });
        await assert.rejects(
          log.importRecords(moved, keys),
          /another content key for subject secret/,
        );
        assert.equal(await log.head(), 1);
      }));
  });
