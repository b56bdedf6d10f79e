import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { governance, SYNC_PAGE_MAX } from '../../src/app/governance/index.js';
import { as, codeOf, principal, withGovernance } from './app-harness.js';
import { impl, P, pm, reviewer } from './fixture.js';

const ENVELOPE = [
  'cursor',
  'event_id',
  'project_id',
  'event_type',
  'actor_id',
  'actor_role',
  'aggregate_type',
  'aggregate_id',
  'correlation_id',
  'causation_event_id',
  'created_at',
  'payload',
].sort();

describe('sync_since', () => {
  it('returns exactly the contract envelope, strictly increasing cursors, and pages', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      for (let i = 0; i < 5; i++)
        await g.issueWorkPackage({ project_id: P, work_package_id: `W${i}`, title: 't' }, as(pm));
      const all = await g.syncSince({ project_id: P, cursor: 0 }, principal(reviewer));
      assert.equal(all.has_more, false);
      for (const e of all.events) assert.deepEqual(Object.keys(e).sort(), ENVELOPE);
      const cursors = all.events.map((e) => e.cursor);
      assert.deepEqual(
        cursors,
        [...cursors].sort((a, b) => a - b),
      );
      assert.equal(new Set(cursors).size, cursors.length);
      assert.equal(all.next_cursor, cursors.at(-1));
      const wp = all.events.find((e) => e.event_type === 'work_package.issued')!;
      assert.equal(wp.aggregate_type, 'work_package');
      assert.equal(wp.correlation_id, 'W0');
      assert.equal(wp.actor_role, 'PM');

      const first = await g.syncSince({ project_id: P, cursor: 0, limit: 2 }, principal(impl));
      assert.deepEqual(
        first.events.map((e) => e.cursor),
        cursors.slice(0, 2),
      );
      assert.equal(first.has_more, true);
      const end = await g.syncSince({ project_id: P, cursor: all.next_cursor }, principal(impl));
      assert.deepEqual([end.events, end.next_cursor, end.has_more], [[], all.next_cursor, false]);
    }));

  it('refuses a limit over 500 or a negative cursor', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      const bad = { project_id: P, cursor: 0, limit: SYNC_PAGE_MAX + 1 };
      assert.equal(await codeOf(g.syncSince(bad, principal(impl))), 'invalid_argument');
      assert.equal(
        await codeOf(g.syncSince({ project_id: P, cursor: -1 }, principal(impl))),
        'invalid_argument',
      );
    }));

  it('a consumer paging from 0 while others append sees every event exactly once', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      const writers = Array.from({ length: 4 }, (_, w) =>
        (async () => {
          for (let i = 0; i < 60; i++)
            await g.issueWorkPackage(
              { project_id: P, work_package_id: `w${w}-${i}`, title: 't' },
              as(pm),
            );
        })(),
      );
      let done = false;
      // done also when a writer fails, so the loop ends and `await writing` reports it
      const writing = Promise.all(writers).finally(() => (done = true));
      const seen: number[] = [];
      let cursor = 0;
      for (;;) {
        // a consumer polls: yield to timers, or a loop of reads could starve the writers
        await new Promise((resolve) => setImmediate(resolve));
        const page = await g.syncSince({ project_id: P, cursor, limit: 7 }, principal(impl));
        seen.push(...page.events.map((e) => e.cursor));
        cursor = page.next_cursor;
        if (!page.has_more && done) {
          const last = await g.syncSince({ project_id: P, cursor }, principal(impl));
          seen.push(...last.events.map((e) => e.cursor));
          if (!last.has_more) break;
          cursor = last.next_cursor;
        }
      }
      await writing;
      const ids = (await app.log.readProject(P, { after: 0, limit: 10_000 })).map((e) => e.cursor);
      assert.deepEqual(seen, ids);
    }));
});
