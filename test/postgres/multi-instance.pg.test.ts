import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openCatalog, type EventLog, type LogEvent } from '../../src/events/index.js';
import { openPostgresEventLog } from '../../src/events/postgres/index.js';
import { dropSchema, freshSchema, storeUrl } from './pg-test-db.js';
import { spawnInstance, type Instance, type WorkerDone } from './spawn-instance.js';
import { assertAcknowledgedOnce, assertLogInvariants, everything, range1 } from './verify-log.js';

const WORKERS = ['w1', 'w2', 'w3'];
const CLAIMS = 6;
const INCREMENTS = 4;
const SCOPES = ['scope-a', 'scope-b', 'scope-c'];

/** Pages a project by cursor until stopped, as a `sync_since` consumer would. */
const pageProject = (log: EventLog, projectId: string) => {
  const seen: LogEvent[] = [];
  let stopped = false;
  const running = (async () => {
    for (;;) {
      const last = stopped;
      const page = await log.readProject(projectId, { after: seen.at(-1)?.cursor ?? 0, limit: 50 });
      seen.push(...page);
      if (last && page.length === 0) return seen;
      if (page.length === 0) await sleep(5);
    }
  })();
  return { stop: () => ((stopped = true), running) };
};

describe('several instances on one database', () => {
  const schema = freshSchema('multi');
  const url = storeUrl(schema);
  let observer: EventLog;
  before(async () => {
    observer = await openPostgresEventLog(url, openCatalog, { pollMs: 100 });
  });
  after(async () => {
    await observer.close();
    await dropSchema(schema);
  });

  it('appending concurrently from three processes keeps every guarantee', async () => {
    const live: LogEvent[] = [];
    const subscription = observer.live().subscribe((e) => live.push(e));
    const readers = [pageProject(observer, 'alpha'), pageProject(observer, 'shared')];
    const instances: Instance[] = WORKERS.map((worker) =>
      spawnInstance({
        url,
        worker,
        projects: ['alpha', 'beta'],
        streams: 4,
        rounds: 8,
        claims: CLAIMS,
        increments: INCREMENTS,
        scopes: SCOPES,
      }),
    );
    await Promise.all(instances.map((i) => i.ready()));
    for (const instance of instances) instance.go();
    const done: WorkerDone[] = await Promise.all(instances.map((i) => i.done()));
    const [alpha, shared] = await Promise.all(readers.map((r) => r.stop()));

    const events = await assertLogInvariants(observer);
    assertAcknowledgedOnce(
      events,
      instances.flatMap((i) => i.acks),
    );

    // one winner per claimed stream, across instances
    for (const c of range1(CLAIMS)) {
      const winners = WORKERS.filter((_, w) => done[w]!.claims[c]);
      assert.equal(winners.length, 1, `claim ${c}`);
      const claimed = events.filter((e) => e.aggregate_id === `claim-${c}`);
      assert.deepEqual(
        claimed.map((e) => e.data.by),
        winners,
      );
    }

    // Emmett's CommandHandler retries across instances: every increment lands, in order
    assert.deepEqual(
      done.flatMap((d) => d.versions).sort((a, b) => a - b),
      range1(WORKERS.length * INCREMENTS),
    );
    const counter = events.filter((e) => e.aggregate_id === 'counter');
    assert.deepEqual(
      counter.map((e) => e.data.n),
      range1(WORKERS.length * INCREMENTS),
    );

    // an idempotency key used on every instance commits once; the others replay its response
    for (const scope of SCOPES) {
      const outcomes = done.map((d) => d.idempotency.find((o) => o.scope === scope)!);
      const winners = WORKERS.filter((_, w) => outcomes[w]!.committed);
      assert.equal(winners.length, 1, scope);
      for (const o of outcomes.filter((x) => !x.committed))
        assert.deepEqual(o.replayed, { by: winners[0] });
      assert.deepEqual((await observer.getIdempotency(scope))?.response, { by: winners[0] });
      assert.equal(events.filter((e) => e.data.scope === scope).length, 1);
    }

    // one appendId from every instance: one append, one answer
    for (const d of done) assert.deepEqual(d.appendId, done[0]!.appendId);
    assert.equal(events.filter((e) => e.aggregate_id === 'append-id').length, 1);

    // readers paging while the others appended saw each event exactly once, in cursor order
    for (const [project, seen] of [
      ['alpha', alpha!],
      ['shared', shared!],
    ] as const) {
      const expected = events.filter((e) => e.project_id === project);
      assert.deepEqual(
        seen.map((e) => e.event_id),
        expected.map((e) => e.event_id),
      );
    }

    // this instance's live() carried the other processes' events, in global order
    while (live.length < events.length) await sleep(20);
    subscription.unsubscribe();
    assert.deepEqual(
      live.map((e) => e.event_id),
      events.map((e) => e.event_id),
    );
  });

  it('an instance killed mid-write loses no acknowledged event and blocks nobody', async () => {
    const base = (await everything(observer)).length;
    const acks = [];
    for (const round of range1(3)) {
      const plan = { url, projects: ['k1', 'k2'], streams: 3, rounds: 1_000_000, claims: 0 };
      const victim = spawnInstance({
        ...plan,
        worker: `victim${round}`,
        increments: 0,
        scopes: [],
        forever: true,
      });
      const bystander = spawnInstance({
        ...plan,
        worker: `bystander${round}`,
        rounds: 5,
        increments: 0,
        scopes: [],
      });
      await Promise.all([victim.ready(), bystander.ready()]);
      victim.go();
      bystander.go();
      await victim.acked(20 + Math.floor(Math.random() * 60));
      victim.kill();
      await victim.exited;
      await bystander.done();
      acks.push(...victim.acks, ...bystander.acks);
    }
    const after = await observer.appendToStream('thing:k1:after', [{ type: 'x', data: {} }]);
    const events = await assertLogInvariants(observer);
    assert.equal(Number(after.lastEventGlobalPosition), events.length);
    assertAcknowledgedOnce(events.slice(base), acks);
  });
});
