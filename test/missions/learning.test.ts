import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { codeOf, withMissions } from './harness.js';

/**
 * HAI-MCP's learning tools (its tests/test_learning_budget.py, through an MCP client): one
 * active block per project, completion only after the server-timed minimum and with evidence
 * files, the owner's literal acknowledgement, credits minted by a completion and never by an
 * abandon. Every refusal leaves the log's head where it was.
 */

const reflection = {
  own_activity: 'I wrote and ran examples with try/except/finally.',
  learned: 'A finally block runs even when an exception propagates.',
  open_question: 'When should custom exceptions carry structured fields?',
};

describe('missions: learning blocks', () => {
  it('start, too early, complete after the minimum, credits minted once', () =>
    withMissions(async ({ app, call, clock, dirs }) => {
      const at = { project_path: dirs.project };
      const started = await call('hai_learning_start', {
        ...at,
        topic: 'Python exceptions',
        intended_output_path: 'study/exceptions.md',
      });
      assert.equal(codeOf(started), 'ok', JSON.stringify(started));
      assert.match(String(started.block_id), /^LB-\d{8}T\d{6}-[0-9a-f]{8}$/);
      assert.equal(started.status, 'active');
      assert.equal(started.intended_output_path, 'study/exceptions.md');
      assert.equal(started.minimum_learning_minutes, 25);
      assert.equal(started.minimum_completion_at, '2026-12-01T10:25:00.000Z');
      const block = { block_id: started.block_id };

      const head = await app.log.head();
      const second = await call('hai_learning_start', {
        ...at,
        topic: 'Python modules',
        intended_output_path: 'study/modules.md',
      });
      assert.equal(codeOf(second), 'learning_block_active');
      assert.equal(second.active_block_id, started.block_id);

      const complete = { ...block, ...reflection, evidence_paths: ['study/exceptions.md'] };
      const early = await call('hai_learning_complete', { ...complete, owner_ack: true });
      assert.equal(codeOf(early), 'learning_time_required');
      assert.equal(early.remaining_seconds, 25 * 60);
      assert.equal(early.minimum_completion_at, started.minimum_completion_at);
      for (const owner_ack of [false, 1, 'true', undefined]) {
        const denied = await call('hai_learning_complete', { ...complete, owner_ack });
        assert.equal(codeOf(denied), 'owner_gate_required', String(owner_ack));
      }
      assert.equal(await app.log.head(), head, 'refusals append nothing');

      clock.advance(25 * 60);
      const missing = await call('hai_learning_complete', { ...complete, owner_ack: true });
      assert.equal(codeOf(missing), 'invalid_args');
      assert.match(String(missing.message), /does not exist/);
      await mkdir(join(dirs.project, 'study'));
      await writeFile(join(dirs.project, 'study/exceptions.md'), '');
      const empty = await call('hai_learning_complete', { ...complete, owner_ack: true });
      assert.match(String(empty.message), /empty/);
      const notes = 'My exception experiments and explanation.\n';
      await writeFile(join(dirs.project, 'study/exceptions.md'), notes);
      const done = await call('hai_learning_complete', { ...complete, owner_ack: true });
      assert.equal(codeOf(done), 'ok', JSON.stringify(done));
      assert.equal(done.status, 'completed');
      assert.equal(done.credits_minted, 2);
      assert.equal(done.credit_balance, 2);
      assert.equal(done.completed_learning_blocks, 1);
      const record = done.record as { evidence: { path: string; sha256: string; bytes: number }[] };
      assert.deepEqual(record.evidence, [
        {
          path: 'study/exceptions.md',
          sha256: `sha256:${createHash('sha256').update(notes).digest('hex')}`,
          bytes: notes.length,
        },
      ]);
      const again = await call('hai_learning_complete', { ...complete, owner_ack: true });
      assert.equal(codeOf(again), 'learning_block_already_completed');
      const late = await call('hai_learning_abandon', { ...block, reason: 'x', owner_ack: true });
      assert.equal(codeOf(late), 'learning_block_already_completed');
    }));

  it('abandon needs the owner’s ack and a reason, mints nothing, and is final', () =>
    withMissions(async ({ call, clock, dirs }) => {
      const at = { project_path: dirs.project };
      const started = await call('hai_learning_start', {
        ...at,
        topic: 'Regular expressions',
        intended_output_path: 'regex.md',
      });
      const block = { block_id: started.block_id };
      const denied = await call('hai_learning_abandon', { ...block, reason: 'changed my mind' });
      assert.equal(codeOf(denied), 'owner_gate_required');
      const blank = await call('hai_learning_abandon', { ...block, reason: ' ', owner_ack: true });
      assert.equal(codeOf(blank), 'invalid_args');
      const gone = await call('hai_learning_abandon', {
        ...block,
        reason: 'changed my mind',
        owner_ack: true,
      });
      assert.equal(codeOf(gone), 'ok', JSON.stringify(gone));
      assert.equal(gone.status, 'abandoned');
      assert.equal(gone.credits_minted, 0);
      const twice = await call('hai_learning_abandon', { ...block, reason: 'x', owner_ack: true });
      assert.equal(codeOf(twice), 'learning_block_already_abandoned');
      clock.advance(3600);
      await writeFile(join(dirs.project, 'regex.md'), 'notes\n');
      const after = await call('hai_learning_complete', {
        ...block,
        ...reflection,
        evidence_paths: ['regex.md'],
        owner_ack: true,
      });
      assert.equal(codeOf(after), 'learning_block_abandoned');
      // the project may start another block now
      const next = await call('hai_learning_start', {
        ...at,
        topic: 'Unicode',
        intended_output_path: 'unicode.md',
      });
      assert.equal(codeOf(next), 'ok');
    }));

  it('paths stay in the project; ids are checked; a call naming no project uses the home', () =>
    withMissions(async ({ app, call, clock, dirs }) => {
      const at = { project_path: dirs.project };
      const head = await app.log.head();
      for (const [intended_output_path, code] of [
        [join(dirs.outside, 'x.md'), 'path_outside_root'],
        ['../x.md', 'path_outside_root'],
        ['.', 'invalid_args'],
        ['a\0b.md', 'invalid_args'],
      ] as const) {
        const refused = await call('hai_learning_start', {
          ...at,
          topic: 't',
          intended_output_path,
        });
        assert.equal(codeOf(refused), code, intended_output_path);
      }
      for (const block_id of ['LB-20261201T100000-deadbeef', '../../escape', 'LB-x'])
        assert.equal(
          codeOf(await call('hai_learning_abandon', { block_id, reason: 'x', owner_ack: true })),
          'invalid_args',
          block_id,
        );
      assert.equal(await app.log.head(), head);

      // HAI-MCP's call form: no project; the block's id finds it again
      const started = await call('hai_learning_start', {
        topic: 'Shell quoting',
        intended_output_path: 'quoting.md',
      });
      assert.equal(codeOf(started), 'ok', JSON.stringify(started));
      clock.advance(30 * 60);
      await writeFile(join(dirs.data, 'home', 'quoting.md'), 'quotes\n');
      await writeFile(join(dirs.outside, 'x.md'), 'x\n');
      const outside = await call('hai_learning_complete', {
        block_id: started.block_id,
        ...reflection,
        evidence_paths: [join(dirs.outside, 'x.md')],
        owner_ack: true,
      });
      assert.equal(codeOf(outside), 'path_outside_root');
      const done = await call('hai_learning_complete', {
        block_id: started.block_id,
        ...reflection,
        evidence_paths: ['quoting.md'],
        owner_ack: true,
      });
      assert.equal(codeOf(done), 'ok', JSON.stringify(done));
      assert.equal(done.project_id, started.project_id);
    }));
});
