import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { cli, cliIn, seed, withAppIn, withDataDir } from '../cli/cli-harness.js';
import { flipBytes } from '../support/flip-bytes.js';

/** More events after the seed, so the write-ahead log spans several records. */
const grow = (dir: string) =>
  withAppIn(dir, async (app) => {
    for (let n = 0; n < 40; n++)
      await app.projects.registerActor(
        {
          project_id: 'alpha',
          actor_id: `actor-${n}`,
          role: 'IMPLEMENTER',
          display_name: 'x'.repeat(300),
        },
        { principal: { kind: 'system' } },
      );
    return app.log.head();
  });

const assertRefused = (r: { code: number | null; stderr: string }, dir: string) => {
  assert.equal(r.code, 1, `not refused: ${r.stderr}`);
  assert.match(r.stderr, /is corrupt/);
  assert.match(r.stderr, /audit repair --data-dir/);
  assert.ok(r.stderr.includes(dir), 'the message names the store');
};

describe('a corrupt store is refused, not served with a gap (issue 19, defect 3)', () => {
  it('flipped bytes in the write-ahead log: log, serve refuse; the file is untouched; repair copies the intact prefix', () =>
    withDataDir(async (dir) => {
      await seed(dir);
      const head = await grow(dir);
      const path = await flipBytes(dir, '.log');
      const damaged = await readFile(path);

      assertRefused(await cliIn(dir, ['log', '--json']), dir);
      assertRefused(await cliIn(dir, ['serve', '--port', '0']), dir);
      assert.ok((await readFile(path)).equals(damaged), 'refusing changed the damaged file');

      const into = `${dir}-repaired`;
      const repaired = await cliIn(dir, ['audit', 'repair', '--into', into]);
      assert.equal(repaired.code, 2, repaired.stderr);
      const [, copied, total] = /copied (\d+) of (\d+) records/.exec(repaired.stdout)!.map(Number);
      assert.ok(copied! > 0 && copied! < head, `copied ${copied} of ${head}`);
      assert.ok(total! <= head);
      assert.match(repaired.stderr, new RegExp(`not copied: positions ${copied! + 1}\\.\\.`));

      const verified = await cliIn(into, ['audit', 'verify']);
      assert.equal(verified.code, 0, verified.stderr);
      const listed = (await cliIn(into, ['log'])).stdout.trimEnd().split('\n');
      const positions = listed.map((line) => Number(line.split('\t')[0]));
      assert.deepEqual(
        positions,
        Array.from({ length: copied! }, (_, i) => i + 1),
      );
    }));

  it('flipped bytes in a table file: log and serve refuse, naming the file', () =>
    withDataDir(async (dir) => {
      await seed(dir);
      await grow(dir);
      await withAppIn(dir, async () => {}); // reopening moves the write-ahead log into a table
      const path = await flipBytes(dir, '.ldb');
      const r = await cliIn(dir, ['log']);
      assertRefused(r, dir);
      assert.ok(r.stderr.includes(path.split('/').at(-1)!), r.stderr);
      assertRefused(await cli(['serve', '--port', '0', '--data-dir', dir]), dir);
    }));
});
