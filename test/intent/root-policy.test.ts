import { strict as assert } from 'node:assert';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { allowProjectRoots } from '../../src/app/project/roots.js';
import { SYSTEM } from '../mcp/harness.js';
import { alice, bob, intentClient, openAt, withDir } from './harness.js';

/**
 * Intent's `project_root` follows the missions surface's directory policy (issue 28): an actor
 * names a directory only under a root its client declared, a `--project-root` of the server, or
 * one that already holds a project; the local user (SYSTEM) any; a kernel file system nobody.
 * A refusal appends nothing.
 */
describe('intent project_root: only directories the server allows', () => {
  it('two actors and SYSTEM: /proc and outside roots are refused, allowed roots work', () =>
    withDir((data) =>
      withDir(async (base) => {
        const allowed = join(base, 'allowed');
        const outside = join(base, 'outside');
        const declared = join(base, 'declared');
        for (const d of [allowed, outside, declared]) await mkdir(d);
        const app = await openAt(data);
        await allowProjectRoots(app, [allowed]);
        const a = await intentClient(app, [], alice);
        const b = await intentClient(app, [declared], bob);
        const local = await intentClient(app, [], SYSTEM);
        try {
          const head = await app.log.head();
          const refused = async (
            c: typeof a,
            project_root: string,
            reason: RegExp,
            tool = 'intent_start_task',
          ) => {
            const answer = await c.call(tool, { project_root });
            assert.equal(answer.ok, false, `${tool} ${project_root} was accepted`);
            assert.equal(answer.error!.code, 'PROJECT_ROOT_INVALID', JSON.stringify(answer));
            assert.match(answer.error!.message, reason);
          };
          const kernel = /kernel file system/;
          const notAllowed = /outside the roots this server allows/;
          // no one names /proc: not an actor, not the local user
          for (const c of [a, b, local]) await refused(c, '/proc/1', kernel);
          await refused(local, '/proc/self', kernel, 'intent_status');
          // an actor names neither a system directory nor one outside its roots
          for (const c of [a, b]) {
            await refused(c, '/etc', notAllowed);
            await refused(c, outside, notAllowed);
            await refused(c, outside, notAllowed, 'intent_status');
          }
          await refused(a, declared, notAllowed, 'intent_status'); // bob's root, not alice's
          assert.equal(await app.log.head(), head, 'a refused root appended');

          // allowed: under --project-root, a root the client declared, and the local user's any
          const inAllowed = await a.call('intent_start_task', { project_root: allowed });
          assert.equal(inAllowed.ok, true, JSON.stringify(inAllowed.error));
          const inDeclared = await b.call('intent_start_task', { project_root: declared });
          assert.equal(inDeclared.ok, true, JSON.stringify(inDeclared.error));
          const bySystem = await local.call('intent_start_task', { project_root: outside });
          assert.equal(bySystem.ok, true, JSON.stringify(bySystem.error));
          // a directory that holds a project may be named; its tasks stay their owners'
          const named = await a.call('intent_get_snapshot', {
            project_root: declared,
            task_id: inDeclared.task_id,
          });
          assert.equal(named.error?.code, 'TASK_NOT_FOUND', JSON.stringify(named));
          // the host's one declared root needs no project_root at all
          assert.equal((await b.call('intent_status')).ok, true);
        } finally {
          for (const c of [a, b, local]) await c.close();
          await app.close();
        }
      }),
    ));
});
