import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventLog, LogAppendResult } from '../../../src/events/index.js';
import {
  allEvents,
  allRaw,
  ev,
  projectEvents,
  range1,
  readEverything,
  stream,
  withLog,
  type OpenStore,
} from '../harness.js';

type Appended = { name: string; project: string; size: number; result: LogAppendResult };

/** Many concurrent appends over several projects and streams; sizes vary from 1 to 3 events. */
const appendConcurrently = async (
  log: EventLog,
  projects: string[],
  streams: number,
  rounds: number,
) => {
  const jobs = projects.flatMap((project) =>
    range1(streams).map(async (s) => {
      const name = stream(project, `agg-${s}`);
      const done: Appended[] = [];
      for (const round of range1(rounds)) {
        const size = ((s + round) % 3) + 1;
        const events = range1(size).map((i) => ev(round * 10 + i, { stream: name }));
        done.push({ name, project, size, result: await log.appendToStream(name, events) });
      }
      return done;
    }),
  );
  return (await Promise.all(jobs)).flat();
};

export const orderingTests = (open: OpenStore): void => {
  describe('ordering', () => {
    it('global positions and project cursors are gapless and strictly increasing under concurrency', () =>
      withLog(open, async (log) => {
        const projects = ['alpha', 'beta', 'gamma', 'delta'];
        const appended = await appendConcurrently(log, projects, 5, 6);
        const total = appended.reduce((n, a) => n + a.size, 0);
        const all = await allEvents(log);
        assert.deepEqual(
          all.map((e) => e.global_position),
          range1(total),
        );
        assert.equal(await log.head(), total);
        assert.equal(new Set(all.map((e) => e.event_id)).size, total);
        for (const project of projects) {
          const events = await projectEvents(log, project);
          assert.deepEqual(
            events.map((e) => e.cursor),
            range1(events.length),
          );
          const positions = events.map((e) => e.global_position);
          assert.deepEqual(
            positions,
            [...positions].sort((a, b) => a - b),
          );
          assert.equal(events.length, all.filter((e) => e.project_id === project).length);
        }
        const byPosition = new Map(all.map((e) => [e.global_position, e]));
        for (const { name, result } of appended) {
          const last = byPosition.get(Number(result.lastEventGlobalPosition))!;
          assert.equal(last.stream_name, name);
          assert.equal(last.stream_version, Number(result.nextExpectedStreamVersion));
          assert.equal(last.cursor, result.lastCursor);
        }
        for (const name of new Set(appended.map((a) => a.name))) {
          const { events } = await log.readStream(name);
          assert.deepEqual(
            events.map((e) => Number(e.metadata.streamPosition)),
            range1(events.length),
          );
        }
      }));

    it('pages readAll, readProject and readRaw by an exclusive `after`', () =>
      withLog(open, async (log) => {
        await appendConcurrently(log, ['p', 'q'], 3, 4);
        const whole = await log.readAll({ after: 0, limit: 10_000 });
        const paged = await readEverything(
          (p) => log.readAll(p),
          (e) => e.global_position,
          7,
        );
        assert.deepEqual(
          paged.map((e) => e.event_id),
          whole.map((e) => e.event_id),
        );
        const fromMiddle = await log.readAll({ after: 10, limit: 3 });
        assert.deepEqual(
          fromMiddle.map((e) => e.global_position),
          [11, 12, 13],
        );
        assert.deepEqual(await log.readAll({ after: whole.length, limit: 5 }), []);

        const project = whole.filter((e) => e.project_id === 'q');
        const projectPaged = await readEverything(
          (p) => log.readProject('q', p),
          (e) => e.cursor,
          4,
        );
        assert.deepEqual(
          projectPaged.map((e) => e.event_id),
          project.map((e) => e.event_id),
        );
        const afterFive = await log.readProject('q', { after: 5, limit: 2 });
        assert.deepEqual(
          afterFive.map((e) => e.cursor),
          [6, 7],
        );
        assert.deepEqual(await log.readProject('nobody', { after: 0, limit: 10 }), []);

        const raw = await readEverything(
          (p) => log.readRaw(p),
          (e) => e.global_position,
          5,
        );
        assert.deepEqual(
          raw.map((r) => r.event_id),
          whole.map((e) => e.event_id),
        );
        assert.deepEqual(raw[3]!.data, whole[3]!.data);
      }));

    it('keeps ids with ":" and "/" apart and recovers them in the envelope', () =>
      withLog(open, async (log) => {
        const ids = [
          ['p', 'a'],
          ['p:x', 'a'],
          ['p/x', 'a:b'],
          ['p', 'x:a'],
          ['p:x/y', 'a/b:c'],
        ] as const;
        for (const [project, aggregate] of ids)
          await log.appendToStream(stream(project, aggregate, 'doc'), [
            ev(1, { project, aggregate }),
          ]);
        for (const [project, aggregate] of ids) {
          const { events } = await log.readStream(stream(project, aggregate, 'doc'));
          assert.equal(events.length, 1);
          assert.deepEqual(events[0]!.data, { n: 1, project, aggregate });
        }
        const all = await allEvents(log);
        for (const e of all) {
          assert.equal(e.project_id, e.data.project);
          assert.equal(e.aggregate_id, e.data.aggregate);
          assert.equal(e.aggregate_type, 'doc');
        }
        assert.equal((await projectEvents(log, 'p')).length, 2);
        assert.equal((await projectEvents(log, 'p:x')).length, 1);
        assert.equal((await projectEvents(log, 'p/x')).length, 1);
        assert.equal((await projectEvents(log, 'p:x/y')).length, 1);
        assert.equal((await allRaw(log)).length, ids.length);
      }));

    it('stamps the envelope from the append meta', () =>
      withLog(open, async (log) => {
        const meta = {
          actor_id: 'act_1',
          actor_role: 'IMPLEMENTER',
          correlation_id: 'corr_1',
          causation_event_id: 'evt_0',
        };
        await log.appendToStream(stream('p', 'a', 'work_package'), [ev(1)], { meta });
        await log.appendToStream(stream('p', 'b'), [ev(2)]);
        const [first, second] = await allEvents(log);
        assert.equal(first!.actor_id, 'act_1');
        assert.equal(first!.actor_role, 'IMPLEMENTER');
        assert.equal(first!.correlation_id, 'corr_1');
        assert.equal(first!.causation_event_id, 'evt_0');
        assert.equal(first!.aggregate_type, 'work_package');
        assert.equal(second!.actor_id, 'system');
        assert.ok(!Number.isNaN(Date.parse(first!.created_at)));
        assert.equal(first!.shredded, false);
      }));

    it('refuses an id with NUL in its own append, not in the others of its group', () =>
      withLog(open, async (log) => {
        const [bad, good] = await Promise.allSettled([
          log.appendToStream(stream('p\u0000q', 'a'), [ev(1)]),
          log.appendToStream(stream('p', 'a'), [ev(2)]),
        ]);
        assert.equal(bad.status, 'rejected');
        assert.ok((bad as PromiseRejectedResult).reason instanceof TypeError);
        assert.equal(good.status, 'fulfilled');
        assert.deepEqual(
          (await allEvents(log)).map((e) => e.data.n),
          [2],
        );
      }));
  });
};
