import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import {
  levelEventLog,
  openCatalog,
  openClassicLevel,
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

// A counter per project: small enough to predict, enough to show ordering and checkpoints.
const counter = (version = 1, seen: number[] = []): Projector => ({
  name: 'counter',
  version,
  handles: ['counted'],
  async apply(event, tx) {
    seen.push(event.global_position);
    const n = (await tx.get<number>(event.project_id)) ?? 0;
    tx.put(event.project_id, n + (event.data.by as number));
  },
});

const faultOf = async (engine: ProjectionEngine, name: string) =>
  (await engine.status()).find((s) => s.name === name)?.fault;

/** Until the read model's retry has cleared its fault (its backoff starts at 50 ms). */
const untilFolding = async (engine: ProjectionEngine, name: string) => {
  for (let i = 0; i < 200 && (await faultOf(engine, name)); i++) await sleep(50);
  assert.equal(await faultOf(engine, name), undefined, `${name} still fails`);
};

const append = (log: EventLog, project: string, by: number) =>
  log.appendToStream(streamName({ aggregateType: 'c', projectId: project, aggregateId: 'x' }), [
    { type: 'counted', data: { by } },
  ]);

const appendMany = (log: EventLog, count: number) =>
  log.appendToStream(
    streamName({ aggregateType: 'c', projectId: 'a', aggregateId: 'x' }),
    Array.from({ length: count }, () => ({ type: 'counted', data: { by: 1 } })),
  );

describe('projection engine', () => {
  it('catches up from the log, then follows it live; waitFor gives read-your-writes', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    await append(log, 'a', 1);
    await append(log, 'b', 10);
    const engine = await startProjections(log, [counter()]);
    assert.equal(await log.models.get('counter/a'), 1);
    const { lastEventGlobalPosition } = await append(log, 'a', 2);
    await engine.waitFor(Number(lastEventGlobalPosition));
    assert.equal(await log.models.get('counter/a'), 3);
    assert.deepEqual(await engine.status(), [
      { name: 'counter', version: 1, position: 3, head: 3 },
    ]);
    await engine.stop();
    await log.close();
  });

  it('resumes from its checkpoint after a restart, folding each event once', async () => {
    // a directory of its own: the store remembers its checked tables beside itself
    const parent = await mkdtemp(join(tmpdir(), 'intentlog-engine-'));
    const dir = join(parent, 'log');
    try {
      let log = await levelEventLog(await openClassicLevel(dir), openCatalog);
      let engine = await startProjections(log, [counter()]);
      for (let i = 0; i < 5; i++) await append(log, 'a', 1);
      await engine.waitFor(5);
      await engine.stop();
      await log.close();

      log = await levelEventLog(await openClassicLevel(dir), openCatalog);
      await append(log, 'a', 100);
      const seen: number[] = [];
      engine = await startProjections(log, [counter(1, seen)]);
      assert.deepEqual(seen, [6]);
      assert.equal(await log.models.get('counter/a'), 105);
      await engine.stop();
      await log.close();
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('rebuilds a projector whose version changed, and on demand, to the same state', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    let engine = await startProjections(log, [counter()]);
    for (let i = 1; i <= 20; i++) await append(log, `p${i % 3}`, i);
    await engine.waitFor(20);
    const live = await log.models.range({ prefix: 'counter/' });
    await engine.stop();

    const seen: number[] = [];
    engine = await startProjections(log, [counter(2, seen)]);
    assert.equal(seen.length, 20, 'a version bump replays the whole log');
    assert.deepEqual(await log.models.range({ prefix: 'counter/' }), live);

    const progress: number[] = [];
    await engine.rebuild(['counter'], (done) => progress.push(done));
    assert.deepEqual(await log.models.range({ prefix: 'counter/' }), live);
    assert.equal(progress.at(-1), 20);
    await assert.rejects(engine.rebuild(['nope']), /no read model named nope/);
    await engine.stop();
    await log.close();
  });

  it('folds every read model of a cohort in one write per page, checkpoints included', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    const writes: number[] = [];
    const write = log.models.write.bind(log.models);
    log.models.write = (ops) => (writes.push(ops.length), write(ops));
    const named = (name: string): Projector => ({ ...counter(), name });
    const engine = await startProjections(log, [named('one'), named('two'), named('three')]);
    writes.length = 0;
    const { lastEventGlobalPosition } = await append(log, 'a', 1);
    await engine.waitFor(Number(lastEventGlobalPosition));
    assert.deepEqual(writes, [6], 'three models and three checkpoints, one write');
    await engine.stop();
    await log.close();
  });

  it('a failing read model holds up only itself, and catches up once it folds again', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    let broken = true;
    const flaky: Projector = {
      ...counter(),
      name: 'flaky',
      async apply(event, tx) {
        if (broken) throw new Error('disk full');
        await counter().apply(event, tx);
      },
    };
    const errors: string[] = [];
    const engine = await startProjections(log, [counter(), flaky], {
      onError: (_, name) => errors.push(name),
    });
    const { lastEventGlobalPosition } = await append(log, 'a', 5);
    const at = Number(lastEventGlobalPosition);
    await engine.waitFor(at, { models: ['counter'] });
    assert.equal(await log.models.get('counter/a'), 5);
    // answered at once with its fault, not after the (here: a minute's) timeout
    const failed = await engine.waitFor(at, { models: ['flaky'], timeoutMs: 60_000 }).then(
      () => assert.fail('a failed read model answered its waiter'),
      (error: unknown) => error as ReadModelFailedError,
    );
    assert.equal(failed.code, 'read_model_failed');
    assert.deepEqual(
      failed.failed.map((f) => [
        f.name,
        f.position,
        f.fault.phase,
        f.fault.position,
        f.fault.message,
      ]),
      [['flaky', 0, 'fold', at, 'disk full']],
    );
    assert.ok(errors.includes('flaky'));
    const status = await engine.status();
    assert.equal(status.find((s) => s.name === 'flaky')?.error, 'disk full');
    broken = false;
    await untilFolding(engine, 'flaky');
    await engine.waitFor(at, { models: ['flaky'] });
    assert.equal(await log.models.get('flaky/a'), 5);
    assert.equal((await engine.status()).find((s) => s.name === 'flaky')?.error, undefined);
    await engine.stop();
    await log.close();
  });

  it('a slow read model goes on alone: the others answer before it has folded', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: Projector = {
      ...counter(),
      name: 'slow',
      async apply(event, tx) {
        await gate;
        await counter().apply(event, tx);
      },
    };
    const engine = await startProjections(log, [counter(), slow]);
    // the first page is folded by both together, and the slow one is split off after it
    const first = setTimeout(release, 400);
    const { lastEventGlobalPosition: p1 } = await append(log, 'a', 1);
    await engine.waitFor(Number(p1));
    clearTimeout(first);

    let again: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (again = resolve));
    slow.apply = async (event, tx) => {
      await held;
      await counter().apply(event, tx);
    };
    const { lastEventGlobalPosition: p2 } = await append(log, 'a', 2);
    await engine.waitFor(Number(p2), { models: ['counter'], timeoutMs: 5_000 });
    assert.equal(await log.models.get('counter/a'), 3);
    assert.equal(await log.models.get('slow/a'), 1, 'the slow model has not folded it yet');
    again();
    await engine.waitFor(Number(p2), { models: ['slow'] });
    assert.equal(await log.models.get('slow/a'), 3);
    await engine.stop();
    await log.close();
  });

  it('rebuilding one read model leaves the others following the log live', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    for (let i = 0; i < 30; i++) await append(log, 'a', 1);
    let hold: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (hold = resolve));
    const rebuilt: Projector = { ...counter(), name: 'rebuilt' };
    const engine = await startProjections(log, [counter(), rebuilt]);
    rebuilt.apply = async (event, tx) => {
      await held;
      await counter().apply(event, tx);
    };
    const rebuilding = engine.rebuild(['rebuilt']);
    const { lastEventGlobalPosition } = await append(log, 'a', 1);
    await engine.waitFor(Number(lastEventGlobalPosition), { models: ['counter'] });
    assert.equal(await log.models.get('counter/a'), 31);
    hold();
    await rebuilding;
    await engine.waitFor(Number(lastEventGlobalPosition));
    assert.equal(await log.models.get('rebuilt/a'), 31);
    await engine.stop();
    await log.close();
  });
  it('folds the next page while the last is written, reading what that write holds', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    await appendMany(log, 2_500);
    let writing = 0;
    let foldedDuringWrite = 0;
    const write = log.models.write.bind(log.models);
    log.models.write = async (ops) => {
      writing++;
      try {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return await write(ops);
      } finally {
        writing--;
      }
    };
    const watched: Projector = {
      ...counter(),
      async apply(event, tx) {
        if (writing > 0) foldedDuringWrite++;
        await counter().apply(event, tx);
      },
    };
    const engine = await startProjections(log, [watched]);
    assert.equal(await log.models.get('counter/a'), 2_500, 'every event once, none lost');
    assert.ok(foldedDuringWrite >= 1_000, `${foldedDuringWrite} events folded during a write`);
    assert.deepEqual(await engine.status(), [
      { name: 'counter', version: 1, position: 2_500, head: 2_500 },
    ]);
    await engine.stop();
    await log.close();
  });

  it('a refused write while the next page is folded: that fold is dropped, each event counted once', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    await appendMany(log, 3_500);
    let calls = 0;
    const write = log.models.write.bind(log.models);
    log.models.write = async (ops) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (++calls === 2) throw new Error('disk full');
      return write(ops);
    };
    const errors: string[] = [];
    const engine = await startProjections(log, [counter()], {
      onError: (error) => errors.push(error instanceof Error ? error.message : String(error)),
    });
    await untilFolding(engine, 'counter');
    await engine.waitFor(3_500);
    assert.deepEqual(errors, ['disk full']);
    assert.equal(await log.models.get('counter/a'), 3_500);
    await engine.stop();
    await log.close();
  });
});
