import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, it } from 'node:test';
import { cliIn, lines, seed, withDataDir } from './cli-harness.js';

const main = new URL('../../src/cli/main.ts', import.meta.url).pathname;

const holderScript = new URL('./holder.ts', import.meta.url).pathname;

/** A process that holds the data dir as its writer, as a running `intentlog serve` would. */
const hold = async (dir: string): Promise<{ child: ChildProcess; release(): Promise<void> }> => {
  const child = spawn(process.execPath, ['--import', 'tsx', holderScript, dir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  const saw = (what: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => out.includes(what) && resolve();
      child.stdout!.setEncoding('utf8').on('data', (d: string) => ((out += d), check()));
      child.on('exit', () => reject(new Error(`holder exited before ${what}: ${out}`)));
      check();
    });
  await saw('"role":"writer"');
  return {
    child,
    async release() {
      child.stdin!.end();
      await saw('"closed":true');
    },
  };
};

describe('CLI commands while another process holds the data dir', () => {
  it('token, log, export, projections and audit all work through the writer', async () => {
    await withDataDir(async (dir) => {
      const head = await seed(dir);
      const holder = await hold(dir);
      try {
        const created = await cliIn(dir, ['token', 'create', '--actor', 'dana', '--label', 'f']);
        assert.equal(created.code, 0, created.stderr);
        assert.match(created.stdout, /^il_\S+\n$/);
        const tokenId = /issued (tok_\S+)/.exec(created.stderr)![1]!;

        const listed = lines((await cliIn(dir, ['token', 'list', '--json'])).stdout) as {
          token_id: string;
        }[];
        assert.ok(
          listed.some((t) => t.token_id === tokenId),
          'the new token is listed',
        );
        assert.equal((await cliIn(dir, ['token', 'revoke', tokenId])).code, 0);

        const log = lines((await cliIn(dir, ['log', '--json'])).stdout);
        assert.equal(log.length, head + 2, 'seed + issued + revoked');
        const exported = await cliIn(dir, ['export', '--project', 'alpha']);
        assert.equal(lines(exported.stdout).length, 3);

        const rebuilt = await cliIn(dir, ['projections', 'rebuild']);
        assert.equal(rebuilt.code, 0, rebuilt.stderr);
        const status = lines((await cliIn(dir, ['projections', 'status', '--json'])).stdout) as {
          lag: number;
        }[];
        assert.ok(status.length > 0);
        for (const row of status) assert.equal(row.lag, 0);

        const audit = await cliIn(dir, ['audit', 'verify']);
        assert.equal(audit.code, 0, audit.stderr);
        assert.match(audit.stdout, new RegExp(`^ok: ${head + 2} events`));
      } finally {
        await holder.release();
      }
    });
  });

  it('log --follow in a follower prints events committed by other processes', async () => {
    await withDataDir(async (dir) => {
      const head = await seed(dir);
      const holder = await hold(dir);
      const follow = spawn(
        process.execPath,
        ['--import', 'tsx', main, 'log', '--follow', '--json', '--data-dir', dir],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      try {
        let out = '';
        const seen = (n: number) =>
          new Promise<void>((resolve) => {
            const check = () => lines(out).length >= n && resolve();
            follow.stdout.setEncoding('utf8').on('data', (d: string) => ((out += d), check()));
            check();
          });
        await seen(head);
        const created = await cliIn(dir, ['token', 'create', '--system']);
        assert.equal(created.code, 0, created.stderr);
        await seen(head + 1);
        const last = lines(out).at(-1) as { event_type: string; project_id: string };
        assert.deepEqual([last.event_type, last.project_id], ['token.issued', '@system']);
      } finally {
        follow.kill('SIGINT');
        await new Promise((resolve) => follow.on('close', resolve));
        await holder.release();
      }
    });
  });
});
