import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { App } from '../../src/app/app.js';
import { governance } from '../../src/app/governance/index.js';
import { SYSTEM, type Principal } from '../../src/commands/principal.js';
import { intentRef } from '../../src/events/intent/index.js';
import { olivia, withSharedProject } from '../hardening/intent-owners.js';

const syncAll = async (app: App, project: string, by: Principal) => {
  const page = await governance(app).syncSince({ project_id: project, cursor: 0 }, by);
  return page;
};

describe('sync_since: what a member owns reaches no other member', () => {
  it("a member's page leaves out another member's intent task; SYSTEM's holds every one", () =>
    withSharedProject(async (app, w) => {
      const mine = await syncAll(app, w.project, olivia);
      const text = JSON.stringify(mine.events);
      assert.ok(text.includes('Olivia wants dark mode'), 'her own task reaches her');
      // a task's stream, so its events' aggregate_id, is named by the task's ref
      assert.ok(!text.includes(intentRef(w.samsTask)), "Sam's task reached Olivia");
      assert.ok(text.includes(intentRef(w.oliviasTask)), 'her task is named by its ref');
      assert.ok(!text.includes('Sam keeps the API stable'));
      assert.ok(!text.includes('The local user wants a changelog'), "nor the local user's");
      assert.ok(text.includes('actor.registered'), 'the project’s own events still do');
      const all = await syncAll(app, w.project, SYSTEM);
      assert.ok(JSON.stringify(all.events).includes('Sam keeps the API stable'));
      assert.equal(mine.next_cursor, all.next_cursor, 'the cursor moves past what was left out');
      assert.equal(mine.has_more, false);
    }));

  it('a page of only another member’s events is empty, and still moves the cursor on', () =>
    withSharedProject(async (app, w) => {
      const all = await syncAll(app, w.project, SYSTEM);
      const samsFirst = all.events.find((e) => e.aggregate_id === intentRef(w.samsTask))!;
      const page = await governance(app).syncSince(
        { project_id: w.project, cursor: samsFirst.cursor - 1, limit: 1 },
        olivia,
      );
      assert.deepEqual(page.events, []);
      assert.equal(page.next_cursor, samsFirst.cursor);
      assert.equal(page.has_more, true);
    }));
});
