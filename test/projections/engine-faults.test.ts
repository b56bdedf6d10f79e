import { strict as assert } from 'node:assert';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import {
  levelEventLog,
  openCatalog,
  openMemoryLevel,
  streamName,
  type EventLog,
} from '../../src/events/index.js';
import {
  startProjections,
  type ProjectionEngine,
  type Projector,
  type ReadModelFailedError,
} from '../../src/projections/index.js';

// Issue 28, "faults stay local": a read model whose projector or effect throws, hangs or cannot
// be written is reported on itself, answers its waiters at once, and holds up no other.

const counter = (name: string, effect?: Projector['effect']): Projector => ({
  name,
  version: 1,
  handles: ['counted'],
  async apply(event, tx) {
    const n = (await tx.get<number>(event.project_id)) ?? 0;
    tx.put(event.project_id, n + (event.data.by as number));
  },
  ...(effect ? { effect } : {}),
});

const append = async (log: EventLog, project: string, by = 1): Promise<number> =>
  Number(
    (
      await log.appendToStream(
        streamName({ aggregateType: 'c', projectId: project, aggregateId: 'x' }),
        [{ type: 'counted', data: { by } }],
      )
    ).lastEventGlobalPosition,
  );

const faultOf = async (engine: ProjectionEngine, name: string) =>
  (await engine.status()).find((s) => s.name === name)?.fault;

const failureOf = (wait: Promise<void>): Promise<ReadModelFailedError> =>
  wait.then(
    () => assert.fail('a failed read model answered its waiter'),
    (error: unknown) => error as ReadModelFailedError,
  );

/** Resolves with `work`, or fails when it takes longer than `ms` (it must not wait on a fault). */
const within = async <T>(ms: number, work: Promise<T>): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
};

const until = async (what: string, ok: () => Promise<boolean>) => {
  for (let i = 0; i < 200; i++)
    if (await ok()) return;
    else await sleep(50);
  assert.fail(`never: ${what}`);
};

describe('projection engine: faults stay local', () => {
  for (const how of ['throws at once', 'rejects'] as const)
    it(`an effect that ${how} is reported on its read model; the others fold on and answer`, async () => {
      const log = await levelEventLog(await openMemoryLevel(), openCatalog);
      let broken = true;
      const told: string[][] = [];
      const effect: Projector['effect'] =
        how === 'throws at once'
          ? (keys) => {
              if (broken) throw new Error('no such directory');
              told.push([...keys]);
              return Promise.resolve();
            }
          : async (keys) => {
              if (broken) throw new Error('no such directory');
              told.push([...keys]);
            };
      const engine = await startProjections(log, [counter('plain'), counter('files', effect)], {
        effects: true,
      });
      const at = await append(log, 'a', 5);
      await within(2_000, engine.waitFor(at, { models: ['plain'] }));
      assert.equal(await log.models.get('plain/a'), 5);

      const failed = await within(2_000, failureOf(engine.waitFor(at, { timeoutMs: 60_000 })));
      assert.equal(failed.code, 'read_model_failed');
      assert.deepEqual(
        failed.failed.map((f) => [f.name, f.fault.phase, f.fault.position, f.fault.message]),
        [['files', 'effect', at, 'no such directory']],
      );
      const status = await engine.status();
      assert.equal(status.find((s) => s.name === 'files')?.position, 0, 'its reads stand before');
      assert.equal(status.find((s) => s.name === 'plain')?.fault, undefined);
      // its page is written once: the model holds it, the effect alone is owed
      assert.equal(await log.models.get('files/a'), 5);

      // the others go on following the log meanwhile
      const next = await append(log, 'b', 1);
      await within(2_000, engine.waitFor(next, { models: ['plain'] }));

      broken = false;
      await until(
        'the effect ran again',
        async () => (await faultOf(engine, 'files')) === undefined,
      );
      await within(2_000, engine.waitFor(next));
      assert.deepEqual(told, [['a'], ['b']], 'the owed keys, then the next page');
      assert.equal(await log.models.get('files/a'), 5, 'the fold was not repeated');
      assert.equal(await log.models.get('files/b'), 1);
      await engine.stop();
      await log.close();
    });

  it('an effect that hangs is cut off at its deadline; the read models beside it answer', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    let release: () => void = () => undefined;
    const hung = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const engine = await startProjections(
      log,
      [
        counter('plain'),
        counter('files', async () => {
          runs++;
          await hung;
        }),
      ],
      { effects: true, effectDeadlineMs: 200 },
    );
    const at = await append(log, 'a');
    await within(2_000, engine.waitFor(at, { models: ['plain'] }));
    const failed = await within(2_000, failureOf(engine.waitFor(at, { models: ['files'] })));
    assert.match(failed.failed[0]!.fault.message, /did not finish within 200 ms/);
    // a second page, while the effect still hangs: the other model folds it at once
    const next = await append(log, 'a');
    await within(2_000, engine.waitFor(next, { models: ['plain'] }));
    await sleep(600); // retries meanwhile wait on the hung run, never start another beside it
    assert.equal(runs, 1);
    release();
    await until(
      'the hung effect ended',
      async () => (await faultOf(engine, 'files')) === undefined,
    );
    await within(2_000, engine.waitFor(next));
    await engine.stop();
    await log.close();
  });

  it('an effect owed at a restart runs again first, with the keys it was owed', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    const broken = counter('files', () => Promise.reject(new Error('read-only file system')));
    let engine = await startProjections(log, [broken], { effects: true });
    const at = await append(log, 'a', 2);
    await until('the effect failed', async () => (await faultOf(engine, 'files')) !== undefined);
    await engine.stop();
    assert.equal(await log.models.get('files/a'), 2, 'its page was written');

    const told: string[][] = [];
    const fixed = counter('files', async (keys) => void told.push([...keys]));
    engine = await startProjections(log, [fixed], { effects: true });
    await within(2_000, engine.waitFor(at));
    assert.deepEqual(told, [['a']]);
    assert.equal(await faultOf(engine, 'files'), undefined);
    assert.equal(await log.models.get('files/a'), 2, 'folded once');
    await engine.stop();
    await log.close();
  });

  it('a projector that throws is retried on restart, and by a rebuild', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    let broken = true;
    const flaky: Projector = {
      ...counter('flaky'),
      async apply(event, tx) {
        if (broken && event.project_id === 'bad') throw new Error(`cannot fold ${event.type}`);
        await counter('flaky').apply(event, tx);
      },
    };
    let engine = await startProjections(log, [counter('plain'), flaky]);
    await append(log, 'a');
    const bad = await append(log, 'bad');
    const after = await append(log, 'a');
    await within(2_000, engine.waitFor(after, { models: ['plain'] }));
    const fault = await faultOf(engine, 'flaky');
    assert.deepEqual([fault?.phase, fault?.position], ['fold', bad]);
    const flakyAt = (await engine.status()).find((s) => s.name === 'flaky')?.position;
    assert.equal(flakyAt, bad - 1, 'its reads stand before the event it threw on');
    await engine.stop();

    broken = false;
    engine = await startProjections(log, [counter('plain'), flaky]);
    await within(2_000, engine.waitFor(after));
    assert.equal(await log.models.get('flaky/a'), 2);
    broken = true;
    await assert.rejects(engine.rebuild(['flaky']), /rebuilding flaky failed: cannot fold/);
    broken = false;
    await engine.rebuild(['flaky']);
    assert.equal(await faultOf(engine, 'flaky'), undefined);
    assert.equal(await log.models.get('flaky/bad'), 1);
    await engine.stop();
    await log.close();
  });

  it('a refused write stops the read models it would change; the rest read on at once', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    const quiet: Projector = { ...counter('quiet'), handles: ['other'] };
    const engine = await startProjections(log, [counter('counter'), quiet]);
    const write = log.models.write.bind(log.models);
    let full = true;
    log.models.write = (ops) =>
      full
        ? Promise.reject(Object.assign(new Error('IO error: No space left on device'), {}))
        : write(ops);
    const at = await append(log, 'a');
    // `quiet` changes nothing on this page: it has folded it, its checkpoint goes with its next
    await within(2_000, engine.waitFor(at, { models: ['quiet'] }));
    const failed = await within(2_000, failureOf(engine.waitFor(at)));
    assert.deepEqual(
      failed.failed.map((f) => [f.name, f.fault.phase, f.fault.position]),
      [['counter', 'write', at]],
    );
    assert.match(failed.message, /No space left on device/);
    full = false;
    await until(
      'the write went through',
      async () => (await faultOf(engine, 'counter')) === undefined,
    );
    await within(2_000, engine.waitFor(at));
    assert.equal(await log.models.get('counter/a'), 1);
    await engine.stop();
    await log.close();
  });
});
