import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { cliIn, seed, withDataDir } from '../cli/cli-harness.js';

const root = new URL('../..', import.meta.url).pathname;
const script = `${root}docs/audit/verify-chain.mjs`;

const verify = (input: string) =>
  spawnSync(process.execPath, [script], { input, encoding: 'utf8' });

const hasJq = spawnSync('jq', ['--version']).status === 0;

describe('docs/hash-chain.md: an outside auditor verifies with standard tools', () => {
  it('export --raw then the doc’s Node script: ok, and a one-byte change is found', () =>
    withDataDir(async (dir) => {
      const head = await seed(dir);
      const exported = await cliIn(dir, ['export', '--raw']);
      assert.equal(exported.code, 0, exported.stderr);
      const lines = exported.stdout.trimEnd().split('\n');
      assert.equal(lines.length, head);
      const ok = verify(exported.stdout);
      assert.equal(ok.status, 0, ok.stderr);
      assert.match(ok.stdout, new RegExp(`^ok: ${head} records in 3 projects`));

      const tampered = exported.stdout.replace('Alpha project', 'Alpha projecT');
      const bad = verify(tampered);
      assert.equal(bad.status, 1);
      assert.match(bad.stderr, /chain broken at project alpha cursor 1 .*does not match/);

      const dropped = lines.filter((_, i) => i !== 1).join('\n');
      assert.equal(verify(dropped).status, 1, 'a missing record is a break');
    }));

  it('jq and sha256sum reproduce a record’s hash', { skip: !hasJq && 'jq is not installed' }, () =>
    withDataDir(async (dir) => {
      await seed(dir);
      const exported = await cliIn(dir, ['export', '--raw', '--project', 'alpha']);
      for (const line of exported.stdout.trimEnd().split('\n')) {
        const shell = spawnSync(
          'bash',
          [
            '-c',
            `{ jq -j '.prev_hash' <<<"$1"; printf '\\n'; jq -cjS 'del(.hash)' <<<"$1"; } | sha256sum`,
            '-',
            line,
          ],
          { encoding: 'utf8' },
        );
        assert.equal(shell.stdout.split(' ')[0], (JSON.parse(line) as { hash: string }).hash);
      }
    }),
  );
});
