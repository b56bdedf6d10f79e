import { strict as assert } from 'node:assert';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { callerOf } from '../../src/app/missions/index.js';
import { missions } from '../../src/app/missions/service.js';
import { canonicalRoot } from '../../src/app/missions/paths.js';
import { rootHash } from '../../src/app/project/canonical-root.js';
import { isDomainError } from '../../src/commands/errors.js';
import { SYSTEM, type Principal } from '../../src/commands/principal.js';
import { sha256Hex } from '../../src/events/codec.js';
import { appendLegacyMount, codeOf, withMissions, type MissionsWorld } from './harness.js';

const sam: Principal = { kind: 'actor', actor_id: 'sam' };
const eve: Principal = { kind: 'actor', actor_id: 'eve' };

/** The project the kernel's root binding gives a directory (what every surface reads). */
const kernelProjectOf = async ({ app }: MissionsWorld, dir: string) => {
  await app.waitFor(await app.log.head());
  return app.projects.projectOfRoot(rootHash(await canonicalRoot(dir)));
};

const refusal = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    if (isDomainError(error)) return error.code as string;
    throw error;
  }
  return 'ok';
};

describe('mounts on the shared project aggregate', () => {
  it('a bind is the kernel’s root binding; an implicit directory project lets go of its root', () =>
    withMissions(async (world) => {
      const { call, dirs } = world;
      const head = await world.app.log.head();
      const read = await call('hai_status', { project_path: dirs.project });
      assert.match(read.project_id!, /^dir-[0-9a-f]{24}$/);
      // a read appends nothing: the directory is bound by its first change
      assert.equal(await world.app.log.head(), head);
      assert.equal(await kernelProjectOf(world, dirs.project), undefined);
      const implicit = await call('hai_park', { project_path: dirs.project, text: 'first' });
      assert.equal(implicit.project_id, read.project_id);
      assert.equal(await kernelProjectOf(world, dirs.project), implicit.project_id);
      const bind = { project_id: 'demo', device_id: 'laptop', local_path: dirs.project };
      assert.equal(
        codeOf(await call('hai_bind_project', { ...bind, owner_ack: true, reason: 'mine' })),
        'ok',
      );
      assert.equal(await kernelProjectOf(world, dirs.project), 'demo');
      assert.equal((await call('hai_status', { project_path: dirs.project })).project_id, 'demo');
    }));

  it('a root another surface holds belongs to that project here too', () =>
    withMissions(async (world) => {
      const { app, call, dirs } = world;
      // what the intent surface does when it meets a root first
      const hash = rootHash(await canonicalRoot(dirs.project));
      await app.projects.create(
        { project_id: 'intent-x', name: 'intent project' },
        { principal: SYSTEM },
      );
      await app.projects.bindRoot(
        { project_id: 'intent-x', root_hash: hash, device: 'laptop' },
        { principal: SYSTEM },
      );
      // a read names the project and appends nothing; the first change mounts the path
      const head = await app.log.head();
      assert.equal(
        (await call('hai_status', { project_path: dirs.project })).project_id,
        'intent-x',
      );
      assert.equal(await app.log.head(), head);
      assert.equal(codeOf(await call('hai_park', { project_path: dirs.project, text: 'x' })), 'ok');
      const taken = await call('hai_bind_project', {
        project_id: 'demo',
        device_id: 'laptop',
        local_path: dirs.project,
        owner_ack: true,
        reason: 'try to take it',
      });
      assert.equal(codeOf(taken), 'invalid_args');
      assert.deepEqual((taken.bound_to as { project_id: string }).project_id, 'intent-x');
      // by id, the project is now known with its path on this device
      const byId = await call('hai_status', { project_id: 'intent-x' });
      assert.equal(byId.result!.root, await canonicalRoot(dirs.project));
    }));

  it('mounts stored in the earlier mount table stay readable and are adopted on first use', () =>
    withMissions(async (world) => {
      const { app, call, dirs } = world;
      const root = await canonicalRoot(dirs.project);
      await appendLegacyMount(app, {
        project_id: 'old',
        local_path: root,
        root_hash: sha256Hex(root),
        reason: 'bound before the move',
      });
      const byId = await call('hai_status', { project_id: 'old' });
      assert.equal(byId.project_id, 'old');
      assert.equal(byId.result!.root, root);
      assert.equal((await call('hai_status', { project_path: dirs.project })).project_id, 'old');
      assert.equal(await kernelProjectOf(world, dirs.project), undefined);
      assert.equal(
        (await call('hai_park', { project_path: dirs.project, text: 'x' })).project_id,
        'old',
      );
      assert.equal(await kernelProjectOf(world, dirs.project), 'old');
    }));

  it('the missions roles: who binds a new project owns it; a member works, only an owner passes the gate', () =>
    withMissions(async (world) => {
      const service = missions(world.app);
      const other = join(world.dirs.outside, 'second');
      await mkdir(other);
      // both actors' sessions declare the world's directory as a root
      const roots = [await canonicalRoot(join(world.dirs.project, '..'))];
      const as = (p: Principal) => callerOf(p, roots);
      const bind = (by: Principal, local_path: string) =>
        service.bindProject(
          { project_id: 'team', device_id: 'laptop', local_path, owner_ack: true, reason: 'r' },
          as(by),
        );
      assert.equal(await refusal(bind(sam, world.dirs.project)), 'ok');
      assert.equal(await refusal(bind(eve, other)), 'owner_role_required');
      const at = { project_id: 'team' };
      // not a member: the project is not there for eve
      assert.equal(await refusal(service.proposeNextStep(at, 'x', as(eve))), 'missing_project');
      const grant = (role: 'member' | 'owner') =>
        world.app.projects.registerActor(
          { project_id: 'team', actor_id: 'eve', role, surface: 'missions' },
          { principal: sam },
        );
      await grant('member');
      await service.proposeNextStep(at, 'write csv.ts', as(eve));
      assert.equal(await refusal(service.acceptNextStep(at, {}, as(eve))), 'owner_role_required');
      // the owner gets as far as the gate itself
      assert.equal(await refusal(service.acceptNextStep(at, {}, as(sam))), 'owner_gate_required');
      await grant('owner');
      assert.equal(await refusal(service.acceptNextStep(at, {}, as(eve))), 'owner_gate_required');
    }));
});
