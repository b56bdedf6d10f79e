import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  levelEventLog,
  openCatalog,
  openMemoryLevel,
  streamName,
  type EventLog,
  type ModelOp,
} from '../../src/events/index.js';
import { startProjections, type Projector } from '../../src/projections/index.js';
import { checkpointKey, OWED_EFFECT_PREFIX } from '../../src/projections/projector.js';

const PAGE = 1000;

/** A count per project of the events of the types it handles; `seen` lists what it folded. */
const counting = (name: string, handles: string[], seen: number[] = []): Projector => ({
  name,
  version: 1,
  handles,
  async apply(event, tx) {
    seen.push(event.global_position);
    const n = (await tx.get<number>(event.project_id)) ?? 0;
    tx.put(event.project_id, n + 1);
  },
});

const stream = (project: string) =>
  streamName({ aggregateType: 'c', projectId: project, aggregateId: 'x' });
const append = (log: EventLog, type: string, count: number, project = 'a') =>
  log.appendToStream(
    stream(project),
    Array.from({ length: count }, () => ({ type, data: {} })),
  );

/** Every write the engine hands the store, as the keys it holds. */
const recordWrites = (log: EventLog): string[][] => {
  const writes: string[][] = [];
  const write = log.models.write.bind(log.models);
  log.models.write = (ops: ModelOp[]) => (writes.push(ops.map((o) => o.key)), write(ops));
  return writes;
};

/** What a fold of the whole log gives, per model: its keys and counts. */
const expected = async (log: EventLog, models: Record<string, string[]>) => {
  const out: Record<string, [string, number][]> = {};
  const events = await log.readAll({ after: 0, limit: 1_000_000 });
  for (const [name, handles] of Object.entries(models)) {
    const counts = new Map<string, number>();
    for (const e of events)
      if (handles.includes(e.type))
        counts.set(`${name}/${e.project_id}`, (counts.get(`${name}/${e.project_id}`) ?? 0) + 1);
    out[name] = [...counts].sort(([a], [b]) => (a < b ? -1 : 1));
  }
  return out;
};
const stored = async (log: EventLog, names: string[]) =>
  Object.fromEntries(
    await Promise.all(
      names.map(async (n) => [n, await log.models.range<number>({ prefix: `${n}/` })] as const),
    ),
  );

describe('projection engine: an idle read model costs nothing', () => {
  it('writes nothing for pages it handles no event of, and its checkpoint is at most N pages back', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    await append(log, 'noted', 1);
    for (let i = 0; i < 10; i++) await append(log, 'counted', PAGE);
    const head = await log.head(); // 10,001 events: 11 pages
    const writes = recordWrites(log);
    const rareSeen: number[] = [];
    // writes are counted: no lane may be judged slow and split off, as a loaded machine made
    // the busy one on its first page (14 writes, not 11: reproduced with slowLaneMs 0)
    const engine = await startProjections(
      log,
      [counting('busy', ['counted']), counting('rare', ['noted'], rareSeen)],
      { idleCheckpointPages: 3, slowLaneMs: Infinity },
    );
    assert.deepEqual(rareSeen, [1], 'it folds its one event and nothing else');
    // the resets of the two fresh read models aside (they clear an owed effect too)
    const pages = writes.filter((keys) => !keys.some((k) => k.startsWith(OWED_EFFECT_PREFIX)));
    const touching = pages.filter((keys) => keys.some((k) => k.includes('rare')));
    // page 1 holds its event; then its checkpoint alone on the 3rd idle page: pages 4, 7, 10
    assert.equal(pages.length, 11, 'one write a page, for the busy model');
    assert.equal(touching.length, 4);
    const rareKeys = (keys: string[]) => keys.filter((k) => k.includes('rare'));
    assert.deepEqual(rareKeys(touching[0]!), ['rare/a', checkpointKey('rare')]);
    for (const keys of touching.slice(1)) assert.deepEqual(rareKeys(keys), [checkpointKey('rare')]);
    const at = (await log.models.get<{ position: number }>(checkpointKey('rare')))!.position;
    assert.equal(at, 10 * PAGE);
    assert.ok(head - at <= 3 * PAGE, `restart ${head - at} events back`);
    // its reads see the head all the same
    assert.ok((await engine.status()).every((s) => s.position === head));

    // A restart (the store as a crash leaves it) reads from that checkpoint, folds nothing again
    const reads: number[] = [];
    const readAll = log.readAll.bind(log);
    log.readAll = (o) => (reads.push(o.after), readAll(o));
    const again: number[] = [];
    const restarted = await startProjections(log, [counting('rare', ['noted'], again)], {
      idleCheckpointPages: 3,
      slowLaneMs: Infinity,
    });
    assert.equal(reads[0], at);
    assert.deepEqual(again, []);
    assert.deepEqual(await log.models.range({ prefix: 'rare/' }), [['rare/a', 1]]);
    await restarted.stop();
    // a clean stop writes the checkpoint idle pages moved in memory: nothing to read again
    assert.equal(
      (await log.models.get<{ position: number }>(checkpointKey('rare')))!.position,
      head,
    );
    await engine.stop();
    await log.close();
  });

  it('rebuild equals live, for read models idle on most pages (property)', async () => {
    const types = ['a', 'b', 'c'];
    const models = { ab: ['a', 'b'], c: ['c'], none: ['z'] };
    const batch = fc.record({
      type: fc.constantFrom(...types),
      count: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 300, max: 1500 })),
      project: fc.constantFrom('p1', 'p2'),
      wait: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(batch, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 4 }),
        async (batches, every) => {
          const log = await levelEventLog(await openMemoryLevel(), openCatalog);
          const projectors = () => Object.entries(models).map(([n, h]) => counting(n, h));
          const engine = await startProjections(log, projectors(), { idleCheckpointPages: every });
          for (const b of batches) {
            await append(log, b.type, b.count, b.project);
            if (b.wait) await engine.waitFor(await log.head());
          }
          const head = await log.head();
          await engine.waitFor(head);
          const want = await expected(log, models);
          assert.deepEqual(await stored(log, Object.keys(models)), want, 'live');
          for (const n of Object.keys(models)) {
            const cp = (await log.models.get<{ position: number }>(checkpointKey(n)))!.position;
            assert.ok(cp <= head && head - cp <= every * PAGE, `${n} checkpoint ${cp} of ${head}`);
          }
          await engine.rebuild();
          assert.deepEqual(await stored(log, Object.keys(models)), want, 'rebuilt');
          await engine.stop();
          // a fresh start from empty read models folds to the same
          await log.models.clear('');
          await (await startProjections(log, projectors())).stop();
          assert.deepEqual(await stored(log, Object.keys(models)), want, 'from empty');
          await log.close();
        },
      ),
      { numRuns: 12 },
    );
  });
});
