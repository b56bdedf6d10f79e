import { strict as assert } from 'node:assert';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { callerOf } from '../../src/app/missions/index.js';
import { missions } from '../../src/app/missions/service.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { codeOf, contractArgs, withMissions } from './harness.js';

const lease = (mission_id: string, n: number) => ({
  mission_id,
  contract_version: 1,
  agent_identity: `agent-${n}`,
  role: 'implementer',
  contribution: 'part',
  expected_result: 'part',
  duration_minutes: 30,
  criterion_ids: ['C1'],
  request_id: `race-${n}`,
});

describe('session leases under contention', () => {
  it('of eight agents racing for the last slot exactly one wins', () =>
    withMissions(async ({ app, call, dirs }) => {
      const at = { project_path: dirs.project };
      const mission = await call('hai_open_mission', contractArgs(dirs.project));
      const id = mission.result!.mission_id as string;
      assert.equal(codeOf(await call('hai_authorize_session', { ...at, ...lease(id, 0) })), 'ok');
      const service = missions(app);
      const racers = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          service.authorizeSession(at, lease(id, i + 1), callerOf(SYSTEM)),
        ),
      );
      const won = racers.filter((r) => r.status === 'fulfilled');
      const lost = racers.flatMap((r) =>
        r.status === 'rejected' ? [(r.reason as { code: string }).code] : [],
      );
      assert.equal(won.length, 1);
      assert.deepEqual(new Set(lost), new Set(['parallel_session_denied']));
      const status = await call('hai_status', at);
      assert.equal((status.result!.live_sessions as string[]).length, 2);
    }));

  it('a retry with the same request_id returns the same lease', () =>
    withMissions(async ({ call, dirs }) => {
      const at = { project_path: dirs.project };
      const mission = await call('hai_open_mission', contractArgs(dirs.project));
      const args = { ...at, ...lease(mission.result!.mission_id as string, 1) };
      const first = await call('hai_authorize_session', args);
      const again = await call('hai_authorize_session', args);
      assert.equal(again.result!.session_id, first.result!.session_id);
    }));
});

describe('paths are resolved and confined', () => {
  it('refuses .., absolute (review_required) and symlinked escapes (path_outside_root)', () =>
    withMissions(async ({ call, dirs }) => {
      await mkdir(join(dirs.project, 'src'), { recursive: true });
      await symlink(dirs.outside, join(dirs.project, 'src/escape'));
      const open = (allowed: string[]) =>
        call(
          'hai_open_mission',
          contractArgs(dirs.project, {
            constraints: { project_path: dirs.project, allowed_paths: allowed },
          }),
        );
      // an entry whose text leaves the root is no safe prefix: the contract needs review
      // (HAI-MCP); one that a link leads out of is path_outside_root
      assert.equal(codeOf(await open(['../outside'])), 'review_required');
      assert.equal(codeOf(await open([dirs.outside])), 'review_required');
      assert.equal(codeOf(await open(['src/escape/inner'])), 'path_outside_root');
      // a dangling link: what it points at does not exist yet, and would be created outside
      await symlink(join(dirs.outside, 'not-yet'), join(dirs.project, 'src/dangling'));
      assert.equal(codeOf(await open(['src/dangling'])), 'path_outside_root');
      assert.equal(codeOf(await open(['src/dangling/deeper'])), 'path_outside_root');
      const mission = await open(['src', join(dirs.project, 'test')]);
      assert.deepEqual(
        (mission.result!.contract as { constraints: { allowed_paths: string[] } }).constraints
          .allowed_paths,
        ['src', 'test'],
      );
      const close = {
        project_path: dirs.project,
        mission_id: mission.result!.mission_id,
        contract_version: 1,
        outcome_summary: 'x',
        closure: 'completed',
      };
      for (const path of ['../outside/x', '/etc/passwd', 'src/escape/x'])
        assert.equal(
          codeOf(
            await call('hai_close_mission', { ...close, evidence: { C1: { paths: [path] } } }),
          ),
          'path_outside_root',
          path,
        );
    }));

  it('a symlinked path in an activity is drift, not in scope', () =>
    withMissions(async ({ call, dirs }) => {
      await mkdir(join(dirs.project, 'src/export'), { recursive: true });
      await symlink(dirs.outside, join(dirs.project, 'src/export/out'));
      const at = { project_path: dirs.project };
      const mission = await call('hai_open_mission', contractArgs(dirs.project));
      const granted = await call('hai_authorize_session', {
        ...at,
        ...lease(mission.result!.mission_id as string, 1),
      });
      const check = await call('hai_check_activity', {
        ...at,
        session_id: granted.result!.session_id,
        activity_step: 'write through the link',
        criterion_id: 'C1',
        affected_paths: ['src/export/out/file.ts'],
      });
      assert.equal(check.result!.classification, 'drift');
    }));

  it('a logical project needs a device mount; bind needs owner_ack', () =>
    withMissions(async ({ call, dirs }) => {
      const bind = {
        project_id: 'demo',
        device_id: 'laptop',
        local_path: dirs.project,
        reason: 'my laptop',
      };
      assert.equal(
        codeOf(await call('hai_bind_project', { ...bind, owner_ack: false })),
        'owner_gate_required',
      );
      assert.equal(codeOf(await call('hai_status', { project_id: 'demo' })), 'missing_project');
      assert.equal(codeOf(await call('hai_bind_project', { ...bind, owner_ack: true })), 'ok');
      const mission = await call(
        'hai_open_mission',
        contractArgs(dirs.project, {
          constraints: { project_id: 'demo', max_parallel_sessions: 2 },
        }),
      );
      assert.equal(mission.project_id, 'demo');
      const args = { project_id: 'demo', ...lease(mission.result!.mission_id as string, 1) };
      assert.equal(codeOf(await call('hai_authorize_session', args)), 'device_mount_required');
      assert.equal(
        codeOf(
          await call('hai_authorize_session', { ...args, device_id: 'desktop', request_id: 'r-x' }),
        ),
        'device_mount_required',
      );
      assert.equal(
        codeOf(
          await call('hai_authorize_session', { ...args, device_id: 'laptop', request_id: 'r-y' }),
        ),
        'ok',
      );
      // the directory now resolves to the logical project by path as well
      assert.equal((await call('hai_status', { project_path: dirs.project })).project_id, 'demo');
    }));
});
