import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  encode,
  GENESIS_HASH,
  verifyChain,
  type EventLog,
  type StoredRecord,
} from '../../../src/events/index.js';
import {
  allEvents,
  allRaw,
  ev,
  projectEvents,
  range1,
  sealed,
  stream,
  withLog,
  type OpenStore,
} from '../harness.js';

const chainsOf = async (log: EventLog): Promise<Map<string, StoredRecord[]>> => {
  const chains = new Map<string, StoredRecord[]>();
  for (const record of await allRaw(log))
    chains.set(record.project_id, [...(chains.get(record.project_id) ?? []), record]);
  return chains;
};

const assertChainsVerify = async (log: EventLog): Promise<void> => {
  for (const [project, records] of await chainsOf(log))
    assert.equal(verifyChain(records, GENESIS_HASH), undefined, `chain of ${project}`);
};

const rawBytes = (records: StoredRecord[]): string =>
  Buffer.concat(records.map(encode)).toString('latin1');

export const chainAndSealingTests = (open: OpenStore): void => {
  describe('hash chain', () => {
    it('links every project from the genesis hash, and a changed record breaks it', () =>
      withLog(open, async (log) => {
        await Promise.all(
          ['p', 'q', 'r'].flatMap((project) =>
            range1(4).map((i) => log.appendToStream(stream(project, `a${i}`), [ev(i), ev(i + 1)])),
          ),
        );
        const chains = await chainsOf(log);
        assert.equal(chains.size, 3);
        for (const records of chains.values()) {
          assert.equal(records[0]!.prev_hash, GENESIS_HASH);
          records.slice(1).forEach((r, i) => assert.equal(r.prev_hash, records[i]!.hash));
          assert.equal(verifyChain(records, GENESIS_HASH), undefined);
          const tampered = records.map((r, i) => (i === 3 ? { ...r, data: { n: 999 } } : r));
          assert.equal(verifyChain(tampered, GENESIS_HASH)?.cursor, 4);
        }
      }));
  });

  describe('sealing and shredding', () => {
    it('reads sealed content back while the raw record holds only ciphertext', () =>
      withLog(open, async (log) => {
        const name = stream('p', 'claim-1');
        await log.appendToStream(name, [sealed('subject-1', 'SECRET-one'), ev(1)]);
        const [secret, plain] = (await log.readStream(name)).events;
        assert.deepEqual(secret!.data, { text: 'SECRET-one' });
        assert.deepEqual(plain!.data, { n: 1 });
        const [viaAll] = await allEvents(log);
        assert.equal(viaAll!.shredded, false);
        assert.deepEqual(viaAll!.data, { text: 'SECRET-one' });
        const [raw] = await allRaw(log);
        assert.equal(raw!.data, undefined);
        assert.equal(raw!.sealed?.subject, 'subject-1');
        assert.ok(!rawBytes(await allRaw(log)).includes('SECRET'));
      }));

    it('after shred the content is gone, other subjects stay readable, the chain verifies', () =>
      withLog(open, async (log) => {
        const name = stream('p', 'claim-1');
        await log.appendToStream(name, [sealed('s1', 'SECRET-one'), sealed('s2', 'SECRET-two')]);
        await log.appendToStream(stream('p', 'other'), [ev(1), sealed('s1', 'SECRET-three')]);
        await log.shred('s1');
        const events = await projectEvents(log, 'p');
        const shredded = events.filter((e) => e.shredded);
        assert.deepEqual(
          shredded.map((e) => e.cursor),
          [1, 4],
        );
        for (const e of shredded) assert.deepEqual(e.data, {});
        assert.deepEqual(events[1]!.data, { text: 'SECRET-two' });
        assert.deepEqual(events[2]!.data, { n: 1 });
        const { events: streamEvents } = await log.readStream(name);
        assert.deepEqual(streamEvents[0]!.data, {});
        await assertChainsVerify(log);
        assert.ok(!rawBytes(await allRaw(log)).includes('SECRET'));
      }));

    it('a whole-stream fold of one evolve, loaded again, sees new events and loses shredded content', () =>
      withLog(open, async (log) => {
        const name = stream('p', 'folded');
        const fold = {
          initialState: (): string[] => [],
          evolve: (texts: string[], e: { data: Record<string, unknown> }) => [
            ...texts,
            String(e.data.text ?? e.data.n ?? '-'),
          ],
        };
        await log.appendToStream(name, [ev(1), sealed('s1', 'SECRET-one')]);
        assert.deepEqual((await log.aggregateStream(name, fold)).state, ['1', 'SECRET-one']);
        await log.appendToStream(name, [ev(2)]);
        const again = await log.aggregateStream(name, fold);
        assert.deepEqual(again.state, ['1', 'SECRET-one', '2']);
        assert.equal(again.currentStreamVersion, 3n);
        await log.shred('s1');
        assert.deepEqual((await log.aggregateStream(name, fold)).state, ['1', '-', '2']);
      }));

    it('a subject sealed again after its shred gets a new key; the old content stays shredded', () =>
      withLog(open, async (log) => {
        await log.appendToStream(stream('p', 'a'), [sealed('s1', 'SECRET-old')]);
        await log.shred('s1');
        await log.appendToStream(stream('p', 'a'), [sealed('s1', 'SECRET-new')]);
        const [old, fresh] = await allEvents(log);
        assert.equal(old!.shredded, true);
        assert.deepEqual(old!.data, {});
        assert.equal(fresh!.shredded, false);
        assert.deepEqual(fresh!.data, { text: 'SECRET-new' });
        await assertChainsVerify(log);
      }));
  });
};
