import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Decider } from '@event-driven-io/emmett';
import { DomainError, isDomainError } from '../../src/commands/errors.js';
import {
  runCommand,
  runMultiStreamCommand,
  type CommandStream,
  type Idempotency,
} from '../../src/commands/handler.js';
import { idempotencyScope } from '../../src/commands/idempotency.js';
import {
  levelEventLog,
  openCatalog,
  openMemoryLevel,
  streamName,
  SYSTEM_META,
  type EventLog,
} from '../../src/events/index.js';

type Moved = { type: 'acct.moved'; data: { delta: number; note?: string } };

const account = (id: string): CommandStream<number, Moved> => ({
  name: streamName({
    aggregateType: 'acct',
    projectId: id.startsWith('q') ? 'q' : 'p',
    aggregateId: id,
  }),
  evolve: (balance, e) => balance + e.data.delta,
  initialState: () => 0,
});

const withLog = async (body: (log: EventLog) => Promise<void>) => {
  const log = await levelEventLog(await openMemoryLevel(), openCatalog);
  try {
    await body(log);
  } finally {
    await log.close();
  }
};

const moved = (delta: number, note?: string): Moved => ({
  type: 'acct.moved',
  data: note === undefined ? { delta } : { delta, note },
});

/** Moves `amount` from the first account to the second, refusing to overdraw. */
const transfer = (log: EventLog, from: string, to: string, amount: number, idem?: Idempotency) =>
  runMultiStreamCommand(log, {
    streams: [account(from), account(to)],
    decide: ([source]) => {
      if (source!.state < amount)
        throw new DomainError('invalid_state', 'insufficient funds', { balance: source!.state });
      return [[moved(-amount)], [moved(amount)]];
    },
    meta: SYSTEM_META,
    ...(idem ? { idempotency: idem } : {}),
    respond: (states) => ({ from: states[0], to: states[1] }),
  });

const deposit = (log: EventLog, id: string, amount: number, idem?: Idempotency) =>
  runMultiStreamCommand(log, {
    streams: [account(id)],
    decide: () => [amount === 0 ? [] : [moved(amount)]],
    meta: SYSTEM_META,
    ...(idem ? { idempotency: idem } : {}),
    respond: ([balance]) => ({ balance }),
  });

const key = (k: string, args: Record<string, unknown>, reusedCode?: string): Idempotency => ({
  key: k,
  projectId: 'p',
  callerId: 'alice',
  operation: 'op',
  args,
  ...(reusedCode ? { reusedCode } : {}),
});

describe('runMultiStreamCommand', () => {
  it('decides over every stream and appends them in one atomic append', () =>
    withLog(async (log) => {
      await deposit(log, 'a', 10);
      const outcome = await transfer(log, 'a', 'q1', 4);
      assert.deepEqual(outcome.result, { from: 6, to: 4 });
      assert.equal(outcome.position, 3);
      assert.equal(outcome.replayed, false);
      const q = await log.readProject('q', { after: 0, limit: 10 });
      assert.deepEqual(
        q.map((e) => [e.cursor, e.data.delta]),
        [[1, 4]],
      );
      await assert.rejects(transfer(log, 'a', 'b', 7), (e: unknown) => isDomainError(e));
      assert.equal(await log.head(), 3);
    }));

  it('a race reloads and re-decides: concurrent transfers all land, money is conserved', () =>
    withLog(async (log) => {
      await deposit(log, 'a', 100);
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) => transfer(log, 'a', i % 2 ? 'b' : 'q1', 5)),
      );
      assert.equal(outcomes.length, 8);
      const balance = async (id: string) =>
        (await log.aggregateStream(account(id).name, account(id))).state;
      assert.equal(await balance('a'), 60);
      assert.equal((await balance('b')) + (await balance('q1')), 40);
    }));

  it("hands decide each stream's loaded version (a client's expected version is its check)", () =>
    withLog(async (log) => {
      await deposit(log, 'a', 1);
      await deposit(log, 'a', 1);
      const seen: number[][] = [];
      await runMultiStreamCommand(log, {
        streams: [account('a'), account('b')],
        decide: (loaded) => {
          seen.push(loaded.map((l) => l.version));
          return [[], []];
        },
        meta: SYSTEM_META,
        respond: () => null,
      });
      assert.deepEqual(seen, [[2, 0]]);
    }));
});

describe('idempotency on the command path', () => {
  it('replays the same input; other input is the contract code (default conflict)', () =>
    withLog(async (log) => {
      await deposit(log, 'a', 10);
      const first = await transfer(log, 'a', 'b', 1, key('k1', { n: 1 }));
      const again = await transfer(log, 'a', 'b', 1, key('k1', { n: 1 }));
      assert.deepEqual(again, { ...first, replayed: true });
      assert.equal(await log.head(), 3);
      const stored = await log.getIdempotency(idempotencyScope(key('k1', {})));
      assert.deepEqual(stored?.response, { from: 9, to: 1 });
      await assert.rejects(transfer(log, 'a', 'b', 2, key('k1', { n: 2 })), { code: 'conflict' });
      await assert.rejects(transfer(log, 'a', 'b', 2, key('k1', { n: 2 }, 'REQUEST_ID_REUSED')), {
        name: 'DomainError',
        code: 'REQUEST_ID_REUSED',
      });
    }));

  it('a key whose command emitted no events is recorded: reuse with other input conflicts', () =>
    withLog(async (log) => {
      const first = await deposit(log, 'a', 0, key('k0', { amount: 0 }));
      assert.deepEqual(first.result, { balance: 0 });
      assert.equal(await log.head(), 0);
      const again = await deposit(log, 'a', 0, key('k0', { amount: 0 }));
      assert.equal(again.replayed, true);
      await assert.rejects(deposit(log, 'a', 5, key('k0', { amount: 5 })), { code: 'conflict' });
      assert.equal(await log.head(), 0);
    }));

  it('runCommand stores exactly what it answered, and records a no-event command too', () =>
    withLog(async (log) => {
      const decider: Decider<number, { type: 'Add'; data: { n: number } }, Moved> = {
        decide: (c) => (c.data.n === 0 ? [] : [moved(c.data.n)]),
        evolve: (s, e) => s + e.data.delta,
        initialState: () => 0,
      };
      const run = (n: number) =>
        runCommand(log, {
          decider,
          stream: account('a').name,
          command: { type: 'Add', data: { n } },
          meta: SYSTEM_META,
          idempotency: key(`add-${n === 0 ? 'zero' : 'n'}`, { n }),
          respond: (state, events) => ({ state, events: events.length }),
        });
      assert.deepEqual((await run(3)).result, { state: 3, events: 1 });
      const stored = await log.getIdempotency(idempotencyScope(key('add-n', {})));
      assert.deepEqual(stored?.response, { state: 3, events: 1 });
      await run(0);
      assert.deepEqual(
        (await log.getIdempotency(idempotencyScope(key('add-zero', {}))))?.response,
        { state: 3, events: 0 },
      );
    }));

  it('after a shred, a replay of a sealed answer says the content is gone', () =>
    withLog(async (log) => {
      const say = (text: string) =>
        runMultiStreamCommand(log, {
          streams: [account('a')],
          decide: () => [[{ ...moved(1, text), metadata: { seal: 'subject-1' } } as Moved]],
          meta: SYSTEM_META,
          idempotency: key('say', { text }),
          respond: () => ({ said: text }),
        });
      await say('SECRET');
      assert.deepEqual((await say('SECRET')).result, { said: 'SECRET' });
      await log.shred('subject-1');
      await assert.rejects(say('SECRET'), {
        code: 'not_found',
        details: { reason: 'content_shredded', position: 1 },
      });
    }));
});
