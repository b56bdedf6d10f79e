import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ExpectedVersionConflictError } from '@event-driven-io/emmett';
import { isDomainError } from '../../src/commands/errors.js';
import { CatalogError, IdempotencyReplayError, type LogEvent } from '../../src/events/index.js';
import { openEventLog, writerSocketPath } from '../../src/events/open-log.js';
import { notifyChange, spawnFixture, waitUntil, type Child } from '../fixtures/children.js';
import { hostOps } from '../fixtures/host-ops.js';
import { testCatalog } from '../fixtures/test-catalog.js';

const note = (text: string) => ({ type: 'note.added', data: { text } });
const socketMode = async (dataDir: string) => (await stat(writerSocketPath(dataDir))).mode & 0o777;
const exitedEarly = (child: Child) => () =>
  child.exited() ? `${child.name} exited: ${child.stderr().slice(-2000)}` : undefined;

test('a follower process goes through the writer, then takes over from it', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'intentlog-follower-'));
  const host = spawnFixture('writer-host.ts', [dataDir], 'writer host');
  await waitUntil('the writer host', () => host.lines.some((l) => l.ready), exitedEarly(host));
  assert.equal(host.lines[0]!.role, 'writer');

  let becameWriter = 0;
  const log = await openEventLog({
    dataDir,
    catalog: testCatalog,
    ops: hostOps,
    onWriter: async () => {
      becameWriter++;
      notifyChange();
    },
  });
  const seen: LogEvent[] = [];
  const subscription = log.live().subscribe((event) => {
    seen.push(event);
    notifyChange();
  });
  const stream = 'note:p1:host';

  try {
    await t.test('it is a follower, and the socket is private (0600)', async () => {
      assert.equal(log.role(), 'follower');
      assert.equal(becameWriter, 0);
      assert.equal(await socketMode(dataDir), 0o600);
    });

    await t.test('its calls of writer ops run in the writer', async () => {
      assert.deepEqual(await log.call('whoami', {}), { pid: host.lines[0]!.pid });
      const value = { big: 2n ** 60n, version: 3n, bytes: Buffer.from([1, 2, 3]), list: [1, 'a'] };
      assert.deepEqual(await log.call('echo', { value }), value);
      await assert.rejects(log.call('fail', {}), { code: 'asked_to_fail' });
      await assert.rejects(log.call('failDomain', {}), (error: unknown) => {
        assert.ok(isDomainError(error), `not a DomainError: ${String(error)}`);
        assert.equal(error.name, 'DomainError');
        assert.equal(error.code, 'invalid_state');
        assert.equal(error.message, 'the lease has expired');
        assert.deepEqual(error.details, {
          reason: 'lease_expired',
          task: { id: 't1', attempts: [1, 2] },
        });
        return true;
      });
    });

    await t.test("it sees the writer's live events and its own", async () => {
      host.send({ append: 5, stream });
      await log.appendToStream('note:p1:follower', [note('mine 1'), note('mine 2')]);
      await waitUntil('7 live events', () => seen.length >= 7, exitedEarly(host));
      const texts = seen.map((e) => e.data.text);
      for (let i = 0; i < 5; i++) assert.ok(texts.includes(`${stream} ${i}`));
      assert.ok(texts.includes('mine 1') && texts.includes('mine 2'));
      assert.deepEqual(
        seen.map((e) => e.global_position),
        seen.map((_, i) => seen[0]!.global_position + i),
      );
    });

    await t.test('its reads go to the writer, with bigint versions intact', async () => {
      const read = await log.readStream(stream);
      assert.equal(read.currentStreamVersion, 5n);
      assert.equal(read.events.length, 5);
      assert.equal(read.events[4]!.metadata.streamPosition, 5n);
      const state = await log.aggregateStream(stream, {
        evolve: (count: number) => count + 1,
        initialState: () => 0,
      });
      assert.equal(state.state, 5);
      assert.equal(await log.streamExists(stream), true);
      assert.equal(await log.head(), 7);
      assert.equal((await log.readProject('p1', { after: 0, limit: 100 })).length, 7);
    });

    await t.test('its read-model writes and reads go through', async () => {
      const value = { n: 1, big: 7n, bytes: Buffer.from('x') };
      await log.models.write([
        { type: 'put', key: 'm/a', value },
        { type: 'put', key: 'm/b', value: 2 },
        { type: 'put', key: 'other', value: 3 },
      ]);
      assert.deepEqual(await log.models.get('m/a'), value);
      assert.deepEqual(await log.models.getMany(['m/b', 'nope']), [2, undefined]);
      assert.deepEqual(await log.models.range({ prefix: 'm/' }), [
        ['m/a', value],
        ['m/b', 2],
      ]);
      await log.models.write([{ type: 'del', key: 'm/b' }]);
      await log.models.clear('oth');
      assert.deepEqual(await log.models.range({ prefix: '' }), [['m/a', value]]);
    });

    await t.test(
      'conflicts, idempotency replays and catalog errors keep class and code',
      async () => {
        const conflict = log.appendToStream(stream, [note('late')], { expectedStreamVersion: 2n });
        await assert.rejects(conflict, (error: unknown) => {
          assert.ok(error instanceof ExpectedVersionConflictError);
          assert.equal(error.errorCode, 412);
          assert.equal(error.current, '5');
          return true;
        });
        const idempotency = { scope: 'key-1', fingerprint: 'f1', response: { ok: 1 } };
        await log.appendToStream('note:p1:idem', [note('once')], { idempotency });
        const replay = log.appendToStream('note:p1:idem', [note('twice')], { idempotency });
        await assert.rejects(replay, (error: unknown) => {
          assert.ok(error instanceof IdempotencyReplayError);
          assert.equal(error.record.fingerprint, 'f1');
          assert.deepEqual(error.record.response, { ok: 1 });
          return true;
        });
        assert.equal((await log.getIdempotency('key-1'))?.fingerprint, 'f1');
        const unknown = log.appendToStream(stream, [{ type: 'no.such', data: {} }]);
        await assert.rejects(unknown, (error: unknown) => error instanceof CatalogError);
      },
    );

    await t.test(
      'when the writer is killed, it takes over; live events go on, none lost or repeated',
      async () => {
        host.send({ append: 20, stream: 'note:p2:host' });
        host.send({ die: true });
        await host.exit;
        await waitUntil('the takeover', () => becameWriter === 1);
        await log.head(); // a call waits for the takeover to complete
        assert.equal(log.role(), 'writer');
        assert.equal(await socketMode(dataDir), 0o600);
        await log.appendToStream('note:p2:follower', [note('after 1'), note('after 2')]);
        const head = await log.head();
        await waitUntil('every event live', () => seen.at(-1)?.global_position === head);
        const all = await log.readAll({ after: 0, limit: 1000 });
        assert.deepEqual(
          seen.map((e) => e.event_id),
          all.slice(seen[0]!.global_position - 1).map((e) => e.event_id),
        );
        const acked = host.lines.flatMap((l) =>
          typeof l.appended === 'number' ? [l.appended] : [],
        );
        assert.equal(acked.length, 25);
        assert.ok(acked.every((p) => all[p - 1]?.stream_name.endsWith(':host')));
        assert.deepEqual(await log.models.get('m/a'), { n: 1, big: 7n, bytes: Buffer.from('x') });
      },
    );

    await t.test('a new process follows the new writer over the replaced socket', async () => {
      const next = spawnFixture('writer-host.ts', [dataDir], 'next host');
      await waitUntil('the next host', () => next.lines.some((l) => l.ready), exitedEarly(next));
      assert.equal(next.lines[0]!.role, 'follower');
      next.send({ model: 'm/a' });
      next.send({ append: 1, stream: 'note:p3:next' });
      next.proc.stdin!.end();
      await waitUntil(
        'its append, live here',
        () => seen.some((e) => e.stream_name === 'note:p3:next'),
        () =>
          next.exited() ? `next host: ${JSON.stringify(next.lines)} ${next.stderr()}` : undefined,
      );
      assert.equal((await next.exit).code, 0);
      const model = next.lines.find((l) => l.model === 'm/a');
      assert.deepEqual(model?.value, { n: 1, big: '7', bytes: { type: 'Buffer', data: [120] } });
    });
  } finally {
    subscription.unsubscribe();
    await log.close();
    if (!host.exited()) host.kill9();
    await rm(dataDir, { recursive: true, force: true });
  }
});
