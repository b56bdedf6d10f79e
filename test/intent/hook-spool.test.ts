import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { markerHash } from '../../src/app/intent/index.js';
import { rootHashOf, runLightHook, sessionHashOf } from '../../src/app/intent/hook-light.js';
import { rootHash } from '../../src/app/intent/root.js';
import { readSpooled, spoolDir, spooled } from '../../src/app/intent/hook-spool.js';
import { intentlogArgs } from '../support/intentlog-bin.js';
import { startTaskAt, withDir, withIntentClient } from './harness.js';

/**
 * The Hook spool with no writer running: what Hooks record waits in files until a process opens
 * the store as the writer, which folds each record into the log exactly once and in order —
 * also when a record is folded again (a writer that died between the append and the removal)
 * and when two processes race to be the writer.
 */

/** The task's Hook candidates as the log holds them, in append order (opening folds the spool). */
const candidatesOf = async (data: string, root: string, task_id: string) => {
  return withIntentClient(data, [root], async (c, app) => {
    const { candidates } = await c.ok('intent_list_candidates', { task_id });
    const events = await app.log.readAll({ after: 0, limit: 10_000 });
    const recorded = events
      .filter((e) => e.type === 'intent.candidate_recorded' && e.data.task_id === task_id)
      .map((e) => ({
        candidate_id: String(e.data.candidate_id),
        hook_event: String(e.data.hook_event),
      }));
    assert.equal(
      (candidates as unknown as unknown[]).length,
      recorded.length,
      'listed as recorded',
    );
    return recorded;
  });
};

/** Spools these Hooks for the session, with no writer; answers copies of the record files. */
const spoolAll = (data: string, root: string, session: string, events: string[], keep: string) => {
  for (const event of events)
    runLightHook(data, event as 'stop', { cwd: root, session_id: session, prompt: event });
  mkdirSync(keep, { recursive: true });
  const names = spooled(data);
  for (const name of names) copyFileSync(join(spoolDir(data), name), join(keep, name));
  return names;
};

const restore = (data: string, keep: string) => {
  for (const name of readdirSync(keep)) copyFileSync(join(keep, name), join(spoolDir(data), name));
};

/** `intentlog status` on the data dir: a process that opens the store (as its writer, if free). */
const status = (data: string) =>
  new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, intentlogArgs(['status', '--data-dir', data]), {
      env: { ...process.env, INTENTLOG_STORE: '', INTENTLOG_HOME: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });

const EVENTS = ['user-prompt', 'stop', 'user-prompt', 'session-end'];

describe('intent: the Hook spool', () => {
  it('the Hook hashes as the app does', () => {
    assert.equal(sessionHashOf('S-1'), markerHash('S-1'));
    assert.equal(rootHashOf('/some/root'), rootHash('/some/root'));
  });

  it('a record folded again is appended once; records fold in their order', () =>
    withDir((data) =>
      withDir(async (root) => {
        const task_id = await startTaskAt(data, root, 'S');
        const names = spoolAll(data, root, 'S', EVENTS, join(data, 'kept'));
        assert.equal(names.length, EVENTS.length);
        assert.ok(names.every((n) => readSpooled(data, n) !== undefined));
        const first = await candidatesOf(data, root, task_id);
        assert.deepEqual(
          first.map((c) => c.hook_event),
          EVENTS,
        );
        assert.deepEqual(spooled(data), []);
        // as if the writer had died after appending, before removing the files
        restore(data, join(data, 'kept'));
        assert.deepEqual(await candidatesOf(data, root, task_id), first);
        assert.deepEqual(spooled(data), []);
      }),
    ));

  it('two processes racing to be the writer fold every record exactly once', () =>
    withDir((data) =>
      withDir(async (root) => {
        const task_id = await startTaskAt(data, root, 'R');
        spoolAll(data, root, 'R', EVENTS, join(data, 'kept'));
        for (let round = 0; round < 2; round++) {
          const ran = await Promise.all([status(data), status(data)]);
          for (const r of ran) assert.equal(r.code, 0, r.stderr);
          assert.deepEqual(spooled(data), [], `round ${round}: folded`);
          restore(data, join(data, 'kept'));
        }
        const listed = await candidatesOf(data, root, task_id);
        assert.deepEqual(
          listed.map((c) => c.hook_event),
          EVENTS,
        );
      }),
    ));

  it('a torn or altered record is dropped, never folded', () =>
    withDir((data) =>
      withDir(async (root) => {
        const task_id = await startTaskAt(data, root, 'T');
        const [name] = spoolAll(data, root, 'T', ['stop'], join(data, 'kept'));
        const { writeFileSync, readFileSync } = await import('node:fs');
        const path = join(spoolDir(data), name!);
        writeFileSync(path, readFileSync(path, 'utf8').replace('"stop"', '"user-prompt"'));
        assert.equal(readSpooled(data, name!), undefined);
        assert.deepEqual(await candidatesOf(data, root, task_id), []);
        assert.deepEqual(spooled(data), []);
      }),
    ));
});
