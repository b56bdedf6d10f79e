import { strict as assert } from 'node:assert';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { callerOf } from '../../src/app/missions/index.js';
import { missions } from '../../src/app/missions/service.js';
import { allowProjectRoots } from '../../src/app/project/roots.js';
import { isDomainError } from '../../src/commands/errors.js';
import { SYSTEM, type Principal } from '../../src/commands/principal.js';
import { withMissions } from './harness.js';

const dana: Principal = { kind: 'actor', actor_id: 'dana' };

const codeOf = async (work: Promise<unknown>) => {
  try {
    await work;
    return 'ok';
  } catch (error) {
    if (isDomainError(error)) return error.code as string;
    throw error;
  }
};

describe('where an actor may name a project directory', () => {
  it('under a root its session declared, under --project-root, or where an owner bound it', () =>
    withMissions(async ({ app, dirs }) => {
      const service = missions(app);
      const park = (path: string, by: ReturnType<typeof callerOf>) =>
        codeOf(service.park({ project_path: path }, { text: 'x' }, by));
      const head = await app.log.head();
      // no declared root, no server root: refused, nothing appended
      assert.equal(await park(dirs.project, callerOf(dana)), 'path_outside_root');
      assert.equal(await app.log.head(), head);
      // a root the client declared (the directory or one above it)
      assert.equal(await park(dirs.project, callerOf(dana, [join(dirs.project, '..')])), 'ok');
      // a --project-root of the server
      const served = join(dirs.outside, 'served');
      await mkdir(served);
      assert.equal(await park(served, callerOf(dana)), 'path_outside_root');
      await allowProjectRoots(app, [dirs.outside]);
      assert.equal(await park(served, callerOf(dana)), 'ok');
      // bound by the local user with consent: a member names it with no root of its own
      const bound = join(dirs.data, '..', 'bound');
      await mkdir(bound);
      await service.bindProject(
        { project_id: 'b', device_id: 'laptop', local_path: bound, owner_ack: true, reason: 'r' },
        callerOf(SYSTEM),
      );
      await app.projects.registerActor(
        { project_id: 'b', actor_id: 'dana', role: 'member', surface: 'missions' },
        { principal: SYSTEM },
      );
      assert.equal(await park(bound, callerOf(dana)), 'ok');
      // the local user names any directory
      assert.equal(await park(join(dirs.owner, '..'), callerOf(SYSTEM)), 'ok');
    }));

  it('a --project-root that is no directory stops the server from starting', async () => {
    await withMissions(async ({ app, dirs }) => {
      await assert.rejects(allowProjectRoots(app, [join(dirs.outside, 'nope')]), /--project-root/);
    });
  });
});
