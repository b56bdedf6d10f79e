import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { appendLegacyMount, artifactsWritten, codeOf, withMissions } from './harness.js';

/** A read that must answer well within the projection wait (it stalled for good before). */
const answers = async <T>(work: Promise<T>, ms = 5_000): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
};

describe(
  'a project directory on a kernel file system (/proc)',
  { skip: !existsSync('/proc/1') },
  () => {
    it('hai_park {"project_path":"/proc/1"} is refused before anything is appended; reads go on', () =>
      withMissions(async ({ app, call, dirs }) => {
        const head = await app.log.head();
        const parked = await call('hai_park', { project_path: '/proc/1', text: 'hello' });
        assert.equal(codeOf(parked), 'invalid_args');
        assert.equal(await app.log.head(), head);
        const bound = await call('hai_bind_project', {
          project_id: 'proc',
          device_id: 'laptop',
          local_path: '/proc/1',
          owner_ack: true,
          reason: 'fuzz',
        });
        assert.equal(codeOf(bound), 'invalid_args');
        assert.equal(await app.log.head(), head);
        const status = await answers(call('hai_status', { project_path: dirs.project }));
        assert.equal(codeOf(status), 'ok');
      }));

    it('the artifact sink reports a directory it cannot write, and every read goes on', () =>
      withMissions(async ({ app, call, dirs }) => {
        // a mount recorded before roots were checked (the earlier mount table), at /proc/1
        await appendLegacyMount(app, {
          project_id: 'old',
          local_path: '/proc/1',
          root_hash: 'x'.repeat(64),
          reason: 'recorded before roots were checked',
        });
        const parked = await answers(call('hai_park', { project_id: 'old', text: 'hello' }));
        assert.equal(codeOf(parked), 'ok');
        await artifactsWritten(app);
        const health = await answers(call('hai_health', { project_id: 'old' }));
        const failure = (health.result!.project as { artifact_failure: { reason: string } | null })
          .artifact_failure;
        assert.match(failure!.reason, /ENOENT|EACCES|EPERM/);
        assert.equal(
          codeOf(await answers(call('hai_status', { project_path: dirs.project }))),
          'ok',
        );
        assert.equal(
          codeOf(await answers(call('hai_park', { project_path: dirs.project, text: 'x' }))),
          'ok',
        );
      }));
  },
);
