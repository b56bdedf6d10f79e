import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { makeDirs } from '../../src/events/make-dirs.js';
import { intentlogArgs } from '../support/intentlog-bin.js';

const scratch = mkdtempSync(join(tmpdir(), 'intentlog-make-dirs-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const codeOf = (work: () => void): string | undefined => {
  try {
    work();
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
};

describe('makeDirs: mkdir -p, one component at a time', () => {
  it('makes every missing directory with the mode asked for, and leaves an existing one', () => {
    const deep = join(scratch, 'a', 'b', 'c');
    makeDirs(deep, 0o700);
    for (const dir of [join(scratch, 'a'), join(scratch, 'a', 'b'), deep])
      assert.equal(statSync(dir).mode & 0o777, 0o700, dir);
    makeDirs(deep, 0o755);
    assert.equal(statSync(deep).mode & 0o777, 0o700, 'an existing directory is left as it is');
  });

  it('refuses a file where a directory is asked for, or on its way', () => {
    const file = join(scratch, 'file');
    writeFileSync(file, '');
    assert.equal(
      codeOf(() => makeDirs(file)),
      'EEXIST',
    );
    assert.equal(
      codeOf(() => makeDirs(join(file, 'below'))),
      'ENOTDIR',
    );
  });

  // Node 20's `recursive` mkdir retries this for ever, spinning a core (a child, so that a
  // regression is cut by the timeout instead of hanging the run)
  it('fails at once under a kernel file system (/proc)', { skip: !existsSync('/proc/1') }, () => {
    const script = `import { makeDirs } from ${JSON.stringify(new URL('../../src/events/make-dirs.ts', import.meta.url).href)};
try { makeDirs('/proc/intentlog-nonexistent/x'); } catch (error) { process.stdout.write(error.code); }`;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
        timeout: 20_000,
        killSignal: 'SIGKILL',
      },
    );
    assert.equal(child.signal, null, 'it ended on its own');
    assert.equal(child.stdout, 'ENOENT');
  });

  it(
    '`intentlog mcp` and `token create` with a data dir under /proc end with the reason',
    {
      skip: !existsSync('/proc/1'),
    },
    () => {
      for (const args of [
        ['mcp', '--data-dir', '/proc/intentlog-nonexistent/x'],
        ['token', 'create', '--system', '--data-dir', '/proc/intentlog-nonexistent/x'],
      ]) {
        const child = spawnSync(process.execPath, intentlogArgs(args), {
          encoding: 'utf8',
          input: '',
          timeout: 30_000,
          killSignal: 'SIGKILL',
        });
        assert.equal(child.signal, null, `${args[0]} ended on its own`);
        assert.equal(child.status, 1, args[0]);
        assert.match(child.stderr, /ENOENT.*\/proc\/intentlog-nonexistent/, args[0]);
      }
    },
  );
});
