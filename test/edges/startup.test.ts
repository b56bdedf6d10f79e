import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { cli, cliIn, withDataDir } from '../cli/cli-harness.js';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

describe('start-up dispatch: each command loads only its own file', () => {
  it('--version and -V answer without loading a command', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await cli([flag]);
      assert.equal(r.code, 0);
      assert.equal(r.stdout, `${version}\n`);
    }
  });

  it('--help lists every command; a kernel command alone still parses its options', async () => {
    const help = await cli(['--help']);
    for (const name of [
      'log',
      'export',
      'projections',
      'audit',
      'token',
      'mcp',
      'serve',
      'migrate',
      'status',
      'hook',
    ])
      assert.match(help.stdout, new RegExp(`^  ${name}\\b`, 'm'), name);
    const token = await cli(['token', '--help']);
    assert.match(token.stdout, /create/);
    await withDataDir(async (dir) => {
      const created = await cliIn(dir, ['token', 'create', '--system']);
      assert.equal(created.code, 0, created.stderr);
      assert.match(created.stdout, /^\S+\n$/);
      const unknown = await cli(['no-such-command']);
      assert.notEqual(unknown.code, 0);
    });
  });
});
