import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { governance } from '../../src/app/governance/index.js';
import { parseTime, positionAtTime } from '../../src/web/time-travel.js';
import { P, po } from '../governance/fixture.js';
import { actor, getPage, withWeb } from './harness.js';

const GOV = `/projects/${P}/governance`;

describe('web view: time travel by time', () => {
  it('parses a datetime-local value as UTC and refuses what is no time', () => {
    assert.equal(parseTime('2026-12-01T12:00'), Date.parse('2026-12-01T12:00:00Z'));
    assert.equal(parseTime('2026-12-01T12:00:30+01:00'), Date.parse('2026-12-01T11:00:30Z'));
    assert.ok(Number.isNaN(parseTime('yesterday')));
    assert.ok(Number.isNaN(parseTime('2026-12-01')));
  });

  it('a time maps to the last position committed by then; a page shows it as of then', () =>
    withWeb(async (web) => {
      const cookie = await web.signInAs();
      const setupEnd = await web.app.log.head();
      // the log stamps events with the wall clock (the fake clock moves only the deciders' now)
      const [last] = await web.app.log.readAll({ after: setupEnd - 1, limit: 1 });
      const before = last!.created_at;
      // a datetime-local value has whole seconds: the next second after the setup, and the
      // work package issued after it, so that second maps to the setup's end, never to 0
      const nextSecond = Math.floor(Date.parse(before) / 1000) * 1000 + 1000;
      await new Promise((r) => setTimeout(r, Math.max(20, nextSecond - Date.now() + 20)));
      await governance(web.app).issueWorkPackage(
        { project_id: P, work_package_id: 'WP-1', title: 'One' },
        { principal: actor(po.actor_id), idempotencyKey: 'i1' },
      );
      const head = await web.app.log.head();
      assert.equal(await positionAtTime(web.app, Date.parse(before)), setupEnd);
      assert.equal(await positionAtTime(web.app, Date.now() + 1000), head);
      assert.equal(await positionAtTime(web.app, Date.parse('2020-01-01T00:00:00Z')), 0);

      const past = await (
        await getPage(web, `${GOV}?at=${encodeURIComponent(before)}`, cookie)
      ).text();
      assert.match(past, new RegExp(`as of global position\\s*<strong>${setupEnd}</strong`));
      assert.match(past, new RegExp(`committed <time datetime="${before}"`));
      assert.match(past, /OPEN \(0\)/);
      const field = new Date(nextSecond).toISOString().slice(0, 19); // seconds, no zone
      const local = await (await getPage(web, `/timeline?at=${field}`, cookie)).text();
      assert.ok(!local.includes('work_package.issued</code>'), 'the time form travels too');
      // seconds precision: the position is the last one committed by then, its time shown
      const shown = /id="at-time"[^>]*value="([^"]+)"/.exec(local)![1]!;
      assert.ok(shown <= field, `${shown} is not after ${field}`);
      const live = await (await getPage(web, `${GOV}?at=not-a-time`, cookie)).text();
      assert.match(live, /OPEN \(1\)/, 'what is no time shows the page live');
    }));
});
