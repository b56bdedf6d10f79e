import assert from 'node:assert/strict';
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { codeOf, contractArgs, withMissions, type MissionsWorld } from './harness.js';

/**
 * HAI-MCP's own scenarios that answered differently here (issue 42), each as HAI-MCP answers:
 * reads through a linked artifact directory or file, the gate before a missing proposal, project
 * ids that are no slug, and a bind through a link to a directory elsewhere.
 */

const READS = ['hai_status', 'hai_get_next_step', 'hai_read_artifacts', 'hai_recover'];

const readsAnswer = async (w: MissionsWorld) => {
  const codes: Record<string, string> = {};
  for (const tool of READS)
    codes[tool] = codeOf(await w.call(tool, { project_path: w.dirs.project }));
  return codes;
};

const every = (code: string) => Object.fromEntries(READS.map((t) => [t, code]));

const bind = (w: MissionsWorld, project_id: string, local_path: string) =>
  w.call('hai_bind_project', {
    project_id,
    device_id: 'laptop',
    local_path,
    owner_ack: true,
    reason: 'the peer case',
  });

describe('missions: HAI-MCP cases (issue 42)', () => {
  it('reads through a Projek-Managment linked out of the project answer path_outside_root', () =>
    withMissions(async (w) => {
      await writeFile(join(w.dirs.outside, 'NEXT_STEP.md'), 'from outside\n');
      await symlink(w.dirs.outside, join(w.dirs.project, 'Projek-Managment'));
      assert.deepEqual(await readsAnswer(w), every('path_outside_root'));
    }));

  it('reads through an artifact file linked out of the project answer path_outside_root', () =>
    withMissions(async (w) => {
      await writeFile(join(w.dirs.outside, 'NEXT_STEP.md'), 'from outside\n');
      await mkdir(join(w.dirs.project, 'Projek-Managment'));
      await symlink(
        join(w.dirs.outside, 'NEXT_STEP.md'),
        join(w.dirs.project, 'Projek-Managment', 'NEXT_STEP.md'),
      );
      assert.deepEqual(await readsAnswer(w), every('path_outside_root'));
    }));

  it('a Projek-Managment linked to a directory inside the project reads as usual', () =>
    withMissions(async (w) => {
      await mkdir(join(w.dirs.project, 'docs/pm'), { recursive: true });
      await symlink(join(w.dirs.project, 'docs/pm'), join(w.dirs.project, 'Projek-Managment'));
      assert.deepEqual(await readsAnswer(w), every('ok'));
    }));

  for (const gateMode of ['nonce', 'ack_legacy'] as const)
    it(`accept with nothing proposed and no approval: owner_gate_required first (${gateMode})`, () =>
      withMissions(
        async (w) => {
          const before = await w.app.log.head();
          const answer = await w.call('hai_accept_next_step', { project_path: w.dirs.project });
          assert.equal(codeOf(answer), 'owner_gate_required', JSON.stringify(answer));
          assert.equal(answer.gate, gateMode);
          // nothing was appended, and no code went to the owner: there is nothing to approve
          assert.equal(await w.app.log.head(), before);
          assert.deepEqual(await readdir(w.dirs.owner), []);
          // with the approval, the missing proposal is what is wrong
          const approved =
            gateMode === 'ack_legacy'
              ? { owner_ack: true, reason: 'ok' }
              : { owner_code: 'K7F3-M9QW' };
          const second = await w.call('hai_accept_next_step', {
            project_path: w.dirs.project,
            ...approved,
          });
          assert.equal(codeOf(second), 'no_proposal', JSON.stringify(second));
        },
        { gateMode },
      ));

  it('a project_id that is no lowercase slug is invalid_args, nothing bound or opened', () =>
    withMissions(async (w) => {
      const before = await w.app.log.head();
      for (const id of ['HAI-MCP', '../evil', 'a', '9lives'])
        assert.equal(codeOf(await bind(w, id, w.dirs.project)), 'invalid_args', id);
      const opened = await w.call('hai_open_mission', {
        ...contractArgs(w.dirs.project),
        constraints: { project_id: '../evil', allowed_paths: ['src'] },
      });
      assert.equal(codeOf(opened), 'invalid_args', JSON.stringify(opened));
      for (const tool of ['hai_status', 'hai_get_next_step'])
        assert.equal(codeOf(await w.call(tool, { project_id: '../evil' })), 'invalid_args', tool);
      assert.equal(await w.app.log.head(), before);
      assert.equal(codeOf(await bind(w, 'hai-mcp', w.dirs.project)), 'ok');
    }));

  it('binding a link to a directory elsewhere is path_outside_root; a link beside it binds', () =>
    withMissions(async (w) => {
      const out = join(w.dirs.project, 'elsewhere');
      await symlink(w.dirs.outside, out);
      const before = await w.app.log.head();
      const refused = await bind(w, 'linked', out);
      assert.equal(codeOf(refused), 'path_outside_root', JSON.stringify(refused));
      assert.equal(codeOf(await bind(w, 'linked', `${out}/`)), 'path_outside_root');
      assert.equal(await w.app.log.head(), before);
      await mkdir(join(w.dirs.project, 'real'));
      await symlink(join(w.dirs.project, 'real'), join(w.dirs.project, 'alias'));
      const bound = await bind(w, 'aliased', join(w.dirs.project, 'alias'));
      assert.equal(codeOf(bound), 'ok', JSON.stringify(bound));
      assert.equal(bound.local_path, join(w.dirs.project, 'real'));
    }));
});
