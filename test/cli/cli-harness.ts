import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from '../../src/app/app.js';
import { openIntentlog } from '../../src/modules/index.js';
import { intentlogArgs } from '../support/intentlog-bin.js';

const root = new URL('../..', import.meta.url).pathname;

export type CliResult = { code: number | null; stdout: string; stderr: string };

/** Runs `intentlog <args>` as a real process, the way a user would. */
export const cli = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, intentlogArgs(args), {
      cwd: root,
      env: { ...process.env, INTENTLOG_HOME: '', INTENTLOG_STORE: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

/** `intentlog <args> --data-dir <dir>` */
export const cliIn = (dir: string, args: string[]) => cli([...args, '--data-dir', dir]);

/**
 * A fresh data directory (not yet created) inside a temporary folder that is removed after the
 * body with everything in it, siblings such as copies of the data dir included.
 */
export const withDataDir = async <T>(body: (dir: string) => Promise<T>): Promise<T> => {
  const root = await mkdtemp(join(tmpdir(), 'intentlog-cli-'));
  try {
    return await body(join(root, 'data'));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
};

/** Opens the data directory in this process, runs the body, closes it again. */
export const withAppIn = async <T>(dir: string, body: (app: App) => Promise<T>): Promise<T> => {
  const app = await openIntentlog({ dataDir: dir });
  try {
    return await body(app);
  } finally {
    await app.close();
  }
};

const system = { principal: { kind: 'system' as const } };

/** Two projects with members and a root, and a token: real events through the command path. */
export const seed = (dir: string) =>
  withAppIn(dir, async (app) => {
    await app.projects.create({ project_id: 'alpha', name: 'Alpha project' }, system);
    await app.projects.create({ project_id: 'beta', name: 'Beta', description: 'b' }, system);
    await app.projects.registerActor(
      { project_id: 'alpha', actor_id: 'alice', role: 'PO', display_name: 'Alice' },
      system,
    );
    await app.projects.registerActor(
      { project_id: 'alpha', actor_id: 'bob', role: 'IMPLEMENTER' },
      { principal: { kind: 'actor', actor_id: 'alice' } },
    );
    await app.projects.bindRoot({ project_id: 'beta', root_hash: 'r1', device: 'laptop' }, system);
    const { position } = await app.tokens.issue(
      { kind: 'actor', actor_id: 'bob' },
      'ci',
      system.principal,
    );
    await app.waitFor(position);
    return app.log.head();
  });

/** Parses NDJSON output. */
export const lines = (text: string): unknown[] =>
  text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as unknown);

/** Collects a running process's stdout; `until` resolves once the text so far satisfies a test. */
export const watchStdout = (child: ChildProcess) => {
  let text = '';
  const waiting = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
    for (const check of waiting) check();
  });
  return {
    text: () => text,
    until: (test: (text: string) => boolean): Promise<void> =>
      new Promise((resolve, reject) => {
        const exited = () => {
          waiting.delete(check);
          reject(new Error(`process exited; its stdout: ${text}`));
        };
        const check = () => {
          if (!test(text)) return;
          waiting.delete(check);
          child.off('exit', exited);
          resolve();
        };
        waiting.add(check);
        child.once('exit', exited);
        check();
      }),
  };
};
