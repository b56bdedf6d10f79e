import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
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
});
