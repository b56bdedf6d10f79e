import { governance } from '../../src/app/governance/index.js';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import type { App } from '../../src/app/app.js';
import { cliIn, lines, withAppIn, withDataDir } from '../cli/cli-harness.js';

type Envelope = { cursor: number; event_type: string; project_id: string };

const system = (idempotencyKey: string) => ({
  principal: { kind: 'system' as const },
  idempotencyKey,
});
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Project `acme` with a PM who issues `count` packages, from `from` on. */
const issue = async (app: App, count: number, from = 0) => {
  const pm = { principal: { kind: 'actor' as const, actor_id: 'pat' }, idempotencyKey: '' };
  for (let i = from; i < from + count; i++)
    await governance(app).issueWorkPackage(
      { project_id: 'acme', work_package_id: `WP-${i}`, title: `t${i}` },
      { ...pm, idempotencyKey: `wp-${i}` },
    );
};
const seed = (dir: string, packages: number) =>
  withAppIn(dir, async (app) => {
    const g = governance(app);
    await g.createProject({ project_id: 'acme', name: 'Acme' }, system('p1'));
    await g.createProject({ project_id: 'other', name: 'Other' }, system('p2'));
    await g.registerActor({ project_id: 'acme', actor_id: 'pat', role: 'PM' }, system('pat'));
    await issue(app, packages);
  });

describe('intentlog sync', () => {
  it("prints the project's events as sync_since envelopes, paging through all", () =>
    withDataDir(async (dir) => {
      await seed(dir, 5);
      const result = await cliIn(dir, ['sync', '--project', 'acme', '--limit', '2']);
      assert.equal(result.code, 0, result.stderr);
      const events = lines(result.stdout) as Envelope[];
      assert.deepEqual(
        events.map((e) => e.cursor),
        [1, 2, 3, 4, 5, 6, 7],
      );
      assert.ok(events.every((e) => e.project_id === 'acme'));
      assert.deepEqual(
        events.slice(0, 2).map((e) => e.event_type),
        ['project.created', 'actor.registered'],
      );
      const since = await cliIn(dir, ['sync', '--project', 'acme', '--since', '5']);
      assert.deepEqual(
        (lines(since.stdout) as Envelope[]).map((e) => e.cursor),
        [6, 7],
      );
    }));

  it('--state-file resumes after the last printed cursor', () =>
    withDataDir(async (dir) => {
      await seed(dir, 2);
      const state = join(dir, '..', 'acme.sync.json');
      const first = await cliIn(dir, ['sync', '--project', 'acme', '--state-file', state]);
      assert.deepEqual(
        (lines(first.stdout) as Envelope[]).map((e) => e.cursor),
        [1, 2, 3, 4],
      );
      assert.deepEqual(JSON.parse(await readFile(state, 'utf8')), {
        project_id: 'acme',
        cursor: 4,
      });
      await withAppIn(dir, (app) => issue(app, 3, 2));
      const second = await cliIn(dir, ['sync', '--project', 'acme', '--state-file', state]);
      assert.deepEqual(
        (lines(second.stdout) as Envelope[]).map((e) => e.cursor),
        [5, 6, 7],
      );
      const third = await cliIn(dir, ['sync', '--project', 'acme', '--state-file', state]);
      assert.equal(third.stdout, '');
      const wrong = await cliIn(dir, ['sync', '--project', 'other', '--state-file', state]);
      assert.equal(wrong.code, 1);
    }));

  it('--follow prints events as another process commits them, until SIGTERM', () =>
    withDataDir(async (dir) => {
      await seed(dir, 1);
      const args = ['--import', 'tsx', 'src/cli/main.ts', 'sync', '--project', 'acme', '--follow'];
      const child = spawn(process.execPath, [...args, '--data-dir', dir], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      let onOutput = () => {};
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      child.stdout.setEncoding('utf8').on('data', (d: string) => ((out += d), onOutput()));
      const printed = (n: number) =>
        new Promise<void>((resolve) => {
          onOutput = () => void (lines(out).length >= n && resolve());
          onOutput();
        });
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      await printed(3);
      // this process follows the data dir's writer (the sync process) and appends through it
      await withAppIn(dir, (app) => issue(app, 4, 1));
      await printed(7);
      child.kill('SIGTERM');
      assert.equal(await closed, 0, err);
      assert.deepEqual(
        (lines(out) as Envelope[]).map((e) => e.cursor),
        [1, 2, 3, 4, 5, 6, 7],
      );
    }));
});
