import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runLightHook, sessionHashOf } from '../../src/app/intent/hook-light.js';
import {
  RECORD_MAX_BYTES,
  readSpooled,
  spoolDir,
  spooled,
  type SpoolRecord,
} from '../../src/app/intent/hook-spool.js';
import { startTaskAt, withDir, withIntentClient } from './harness.js';

/**
 * The writer takes from the Hook spool only what a Hook could have written (issue 40, point 4):
 * a regular file with one link, at most RECORD_MAX_BYTES, every field in its one shape. Anything
 * else (a FIFO, which blocked the event loop; a link; a 64 MB file; a lone surrogate, which
 * made the fold throw and retry for ever; a 5 MB "hash") is quarantined with its reason, shown
 * by intent_status, and the records after it are folded in order.
 */
type Fields = Omit<SpoolRecord, 'id'>;
const idOf = (r: Fields) =>
  createHash('sha256')
    .update(JSON.stringify([r.v, r.kind, r.root, r.session, r.task_id, r.sha256, r.at, r.nonce]))
    .digest('hex');
/** A record as a Hook writes it, with `change` applied before its id is computed. */
const crafted = (model: SpoolRecord, change: Partial<Fields>): string => {
  const { id: _id, ...fields } = { ...model, ...change };
  return JSON.stringify({ ...fields, id: idOf(fields) });
};

describe('intent: what the writer takes from the Hook spool', () => {
  it('FIFOs, links, directories, huge and ill-formed records are set aside; the rest fold in order', () =>
    withDir((data) =>
      withDir(async (root) => {
        const task_id = await startTaskAt(data, root, 'S');
        const dir = spoolDir(data);
        const hook = (prompt: string) =>
          runLightHook(data, 'user-prompt', { cwd: root, session_id: 'S', prompt });
        hook('first');
        const [first] = spooled(data);
        const model = readSpooled(data, first!)!;
        assert.equal(model.session, sessionHashOf('S'));
        // bad entries named to sort between the good records, as a Hook's names would
        const at = (n: number) => `${first!.slice(0, 15)}-00000${n}-1-user-prompt-x.rec`;
        execFileSync('mkfifo', [join(dir, at(1))]);
        writeFileSync(join(data, 'elsewhere.json'), readFileSync(join(dir, first!)));
        symlinkSync(join(data, 'elsewhere.json'), join(dir, at(2)));
        mkdirSync(join(dir, at(3)));
        writeFileSync(join(dir, at(4)), '');
        truncateSync(join(dir, at(4)), 64 * 1024 * 1024);
        writeFileSync(join(dir, at(5)), crafted(model, { session: `${model.session}\ud800` }));
        writeFileSync(join(dir, at(6)), crafted(model, { sha256: 'f'.repeat(5 * 1024 * 1024) }));
        writeFileSync(join(dir, at(7)), crafted(model, { sha256: `${'a'.repeat(63)}\ud800` }));
        writeFileSync(join(dir, at(8)), crafted(model, { nonce: 'not-hex!' }));
        await new Promise((r) => setTimeout(r, 5));
        hook('last');
        assert.equal(spooled(data).length, 10);

        const { listed, status } = await withIntentClient(data, [root], async (c) => ({
          listed: (await c.ok('intent_list_candidates', { task_id })).candidates as unknown as {
            hook_event: string;
          }[],
          status: await c.ok('intent_status', { task_id }),
        }));
        assert.equal(listed.length, 2, 'the two good records, once each');
        assert.deepEqual(spooled(data), [], 'nothing left to hold the next records back');
        const spool = status.hook_spool as unknown as {
          quarantined: number;
          recent: { record: string; reason: string }[];
        };
        assert.equal(spool.quarantined, 8);
        const reasons = new Map<string, string>();
        // the newest five are shown; every note is in the quarantine directory
        for (const r of spool.recent) reasons.set(r.record, r.reason);
        assert.match(reasons.get(at(8))!, /nonce/);
        assert.match(reasons.get(at(7))!, /sha256/);
        assert.match(reasons.get(at(6))!, new RegExp(`over the ${RECORD_MAX_BYTES}-byte bound`));
        assert.match(reasons.get(at(5))!, /session/);
        assert.match(reasons.get(at(4))!, /67108864 bytes, over/);
        const notes = readdirSync(join(data, 'intent-hooks', 'quarantine'))
          .map((n) => readFileSync(join(data, 'intent-hooks', 'quarantine', n), 'utf8'))
          .join('\n');
        assert.match(notes, /a FIFO, not a record/);
        assert.match(notes, /a symbolic link, not a record/);
        assert.match(notes, /a directory, not a record/);
      }),
    ));

  it("intent_status read right after a Hook returned counts that Hook's candidate (issue 42)", () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c) => {
          const task_id = String(
            (await c.ok('intent_start_task', { host_session_id: 'N' })).task_id,
          );
          // the writer wrote the view once the start was read back
          for (
            let i = 0;
            i < 200 &&
            !runLightHook(data, 'session-start', {
              cwd: root,
              session_id: 'N',
            }).hookSpecificOutput?.additionalContext.includes(task_id);
            i++
          )
            await new Promise((r) => setTimeout(r, 25));
          for (let n = 1; n <= 3; n++) {
            runLightHook(data, 'user-prompt', { cwd: root, session_id: 'N', prompt: `p${n}` });
            const status = await c.ok('intent_status', { task_id });
            assert.equal(status.hook_candidate_count, n);
            assert.equal(
              (status.task as unknown as { candidate_count: number }).candidate_count,
              n,
            );
          }
        });
      }),
    ));
});
