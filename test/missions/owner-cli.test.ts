import { strict as assert } from 'node:assert';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pendingCodes } from '../../src/app/missions/owner-channel.js';
import { cli } from '../cli/cli-harness.js';
import { withMissions } from './harness.js';

describe('intentlog owner code', () => {
  it('shows the person at the keyboard the pending code and what it approves', () =>
    withMissions(
      async ({ call, dirs, ownerCode }) => {
        await call('hai_propose_next_step', {
          project_path: dirs.project,
          content: 'write csv.ts',
        });
        // a plain accept: no content, it approves the current proposal
        const asked = await call('hai_accept_next_step', { project_path: dirs.project });
        const shown = await cli(['owner', 'code', '--owner-dir', dirs.owner]);
        assert.equal(shown.code, 0, shown.stderr);
        assert.ok(shown.stdout.startsWith(await ownerCode()), shown.stdout);
        assert.match(shown.stdout, /hai_accept_next_step/);
        assert.ok(shown.stdout.includes(String(asked.challenge_id)));
        // issue 30 #5: the owner sees the project's directory and the text a plain accept approves
        assert.match(shown.stdout, new RegExp(`at ${dirs.project}`));
        assert.match(shown.stdout, /write csv\.ts/);
        assert.match(shown.stdout, /sha256:[0-9a-f]{64}/);
        const json = await cli(['owner', 'code', '--json', '--owner-dir', dirs.owner]);
        assert.equal((JSON.parse(json.stdout.trim()) as { code: string }).code, await ownerCode());
        const none = await cli(['owner', 'code', '--owner-dir', `${dirs.owner}-none`]);
        assert.match(none.stdout, /no pending owner code/);
      },
      // the CLI reads the wall clock: the world's clock starts now so the code is not expired
      { start: new Date().toISOString() },
    ));

  it('skips a malformed, `null` or other-shaped file with a warning; the valid codes still show (issue 40)', () =>
    withMissions(
      async ({ call, dirs, ownerCode }) => {
        await call('hai_propose_next_step', { project_path: dirs.project, content: 'write a.ts' });
        await call('hai_accept_next_step', { project_path: dirs.project });
        // Given bad files beside the code's
        await writeFile(join(dirs.owner, 'broken.json'), '{"code": ');
        await writeFile(join(dirs.owner, 'null.json'), 'null');
        await writeFile(join(dirs.owner, 'other.json'), '{"code": 42}');
        // When the owner reads the codes
        const shown = await cli(['owner', 'code', '--owner-dir', dirs.owner]);
        // Then the valid code shows and each bad file is named on stderr
        assert.equal(shown.code, 0, shown.stderr);
        assert.ok(shown.stdout.startsWith(await ownerCode()), shown.stdout);
        for (const file of ['broken.json', 'null.json', 'other.json'])
          assert.match(shown.stderr, new RegExp(`skipped ${file.replace('.', '\\.')}`));
        const json = await cli(['owner', 'code', '--json', '--owner-dir', dirs.owner]);
        assert.equal(json.code, 0, json.stderr);
        assert.equal((JSON.parse(json.stdout.trim()) as { code: string }).code, await ownerCode());
        // the reader the web missions page shares says the same
        const read = await pendingCodes(dirs.owner, new Date().toISOString());
        assert.equal(read.codes.length, 1);
        assert.deepEqual(
          read.skipped.map((s) => s.file),
          ['broken.json', 'null.json', 'other.json'],
        );
      },
      { start: new Date().toISOString() },
    ));
});
