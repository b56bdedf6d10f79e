import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, it } from 'node:test';
import { intentlogArgs } from '../support/intentlog-bin.js';
import { cliIn, lines, seed, watchStdout, withDataDir } from './cli-harness.js';

const holderScript = new URL('./holder.ts', import.meta.url).pathname;

/** A process that holds the data dir as its writer, as a running `intentlog serve` would. */
const hold = async (dir: string): Promise<{ child: ChildProcess; release(): Promise<void> }> => {
  const child = spawn(process.execPath, ['--import', 'tsx', holderScript, dir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const stdout = watchStdout(child);
  const saw = (what: string) => stdout.until((text) => text.includes(what));
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
        intentlogArgs(['log', '--follow', '--json', '--data-dir', dir]),
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      try {
        const stdout = watchStdout(follow);
        const seen = (n: number) => stdout.until((text) => lines(text).length >= n);
        await seen(head);
        const created = await cliIn(dir, ['token', 'create', '--system']);
        assert.equal(created.code, 0, created.stderr);
        await seen(head + 1);
        const last = lines(stdout.text()).at(-1) as { event_type: string; project_id: string };
        assert.deepEqual([last.event_type, last.project_id], ['token.issued', '@system']);
      } finally {
        follow.kill('SIGINT');
        await new Promise((resolve) => follow.on('close', resolve));
        await holder.release();
      }
    });
  });
});
