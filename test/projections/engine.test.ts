import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  levelEventLog,
  openCatalog,
  openClassicLevel,
  openMemoryLevel,
  streamName,
  type EventLog,
} from '../../src/events/index.js';
import { startProjections, type Projector } from '../../src/projections/index.js';

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

const append = (log: EventLog, project: string, by: number) =>
  log.appendToStream(streamName({ aggregateType: 'c', projectId: project, aggregateId: 'x' }), [
    { type: 'counted', data: { by } },
  ]);

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
    const dir = await mkdtemp(join(tmpdir(), 'intentlog-engine-'));
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
      await rm(dir, { recursive: true, force: true });
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
});
