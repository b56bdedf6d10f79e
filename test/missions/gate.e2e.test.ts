import { strict as assert } from 'node:assert';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ownerChannel, pendingCodes } from '../../src/app/missions/owner-channel.js';
import { codeOf, withMissions } from './harness.js';

describe('the owner gate over MCP (nonce)', () => {
  it('issues one pending challenge, delivered only to a 0600 file outside the data home', () =>
    withMissions(async ({ call, dirs, clock }) => {
      const at = { project_path: dirs.project };
      await call('hai_propose_next_step', { ...at, content: 'write csv.ts' });
      const first = await call('hai_accept_next_step', at);
      const again = await call('hai_accept_next_step', at);
      assert.equal(codeOf(first), 'owner_gate_required');
      assert.deepEqual(again.details, first.details);
      assert.equal(first.channel, 'file');
      assert.match(String(first.fingerprint), /^sha256:/);
      const { codes } = await pendingCodes(dirs.owner, clock.clock().toISOString());
      assert.equal(codes.length, 1);
      const file = join(dirs.owner, `${first.challenge_id as string}.json`);
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      // HAI-MCP's owner message beside it: the code, the project and what it approves
      assert.match(String(first.challenge_id), /^C-/);
      const message = join(dirs.owner, `${first.challenge_id as string}.txt`);
      assert.equal((await stat(message)).mode & 0o777, 0o600);
      const text = await readFile(message, 'utf8');
      assert.ok(text.startsWith(`HAI owner code: ${codes[0]!.code}\n`), text);
      assert.ok(text.includes(dirs.project) && text.includes('write csv.ts'), text);
      assert.ok(!JSON.stringify(first).includes(codes[0]!.code.replace('-', '')));
    }));

  it('refuses a reused code: single use', () =>
    withMissions(async ({ call, dirs, ownerCode }) => {
      const at = { project_path: dirs.project };
      await call('hai_propose_next_step', { ...at, content: 'write csv.ts' });
      await call('hai_accept_next_step', at);
      const code = await ownerCode();
      assert.equal(codeOf(await call('hai_accept_next_step', { ...at, owner_code: code })), 'ok');
      assert.equal(
        codeOf(
          await call('hai_accept_next_step', { ...at, content: 'write csv.ts', owner_code: code }),
        ),
        'owner_gate_required:no_pending_challenge',
      );
    }));

  it('refuses an expired code (TTL 600 s)', () =>
    withMissions(async ({ call, dirs, ownerCode, clock }) => {
      const at = { project_path: dirs.project };
      await call('hai_propose_next_step', { ...at, content: 'write csv.ts' });
      await call('hai_accept_next_step', at);
      const code = await ownerCode();
      clock.advance(601);
      assert.equal(
        codeOf(await call('hai_accept_next_step', { ...at, owner_code: code })),
        'owner_gate_required:no_pending_challenge',
      );
    }));

  it('refuses a code for another body (mismatched fingerprint)', () =>
    withMissions(async ({ call, dirs, ownerCode }) => {
      const at = { project_path: dirs.project };
      await call('hai_accept_next_step', { ...at, content: 'write csv.ts' });
      const code = await ownerCode();
      const swapped = await call('hai_accept_next_step', {
        ...at,
        content: 'delete the repo',
        owner_code: code,
      });
      assert.equal(codeOf(swapped), 'owner_gate_required:no_pending_challenge');
      const next = await call('hai_get_next_step', at);
      assert.equal(next.result!.next_step, null);
    }));

  it('refuses a malformed code without using an attempt; three misses cancel', () =>
    withMissions(async ({ call, dirs, ownerCode }) => {
      const at = { project_path: dirs.project, content: 'write csv.ts' };
      await call('hai_accept_next_step', at);
      const right = await ownerCode();
      assert.equal(
        codeOf(await call('hai_accept_next_step', { ...at, owner_code: '12' })),
        'owner_gate_required:malformed_owner_code',
      );
      const miss1 = await call('hai_accept_next_step', { ...at, owner_code: 'AAAA-AAAA' });
      assert.equal(codeOf(miss1), 'owner_gate_required:invalid_owner_code');
      assert.equal(miss1.attempts_remaining, 2);
      await call('hai_accept_next_step', { ...at, owner_code: 'AAAA-AAAB' });
      const miss3 = await call('hai_accept_next_step', { ...at, owner_code: 'AAAA-AAAC' });
      assert.equal(miss3.status, 'cancelled');
      assert.equal(
        codeOf(await call('hai_accept_next_step', { ...at, owner_code: right })),
        'owner_gate_required:no_pending_challenge',
      );
      assert.deepEqual((await pendingCodes(dirs.owner, '2000-01-01T00:00:00.000Z')).codes, []);
    }));

  it('answers owner_channel_unavailable when the owner directory is inside the data home', () =>
    withMissions(async ({ app, call, dirs }) => {
      const channel = ownerChannel(join(dirs.data, 'owner'), app.dataDir);
      await assert.rejects(
        channel.deliver(
          { challenge_id: 'c1', expires_at: 'x' },
          { project_id: 'p', operation: 'o', change: {} },
        ),
        (e: Error & { code?: string }) => e.code === 'owner_channel_unavailable',
      );
      assert.equal(codeOf(await call('hai_health', {})), 'ok');
    }));
});

describe('the owner gate over MCP (ack_legacy)', () => {
  it('needs owner_ack=true + reason, and hai_health flags an honor system', () =>
    withMissions(
      async ({ call, dirs }) => {
        const at = { project_path: dirs.project, content: 'write csv.ts' };
        assert.equal(codeOf(await call('hai_accept_next_step', at)), 'owner_gate_required');
        assert.equal(
          codeOf(await call('hai_accept_next_step', { ...at, owner_ack: true, reason: 'agreed' })),
          'ok',
        );
        const health = await call('hai_health', {});
        const gate = health.result!.owner_gate as { honor_system: boolean; mode: string };
        assert.deepEqual([gate.mode, gate.honor_system], ['ack_legacy', true]);
      },
      { gateMode: 'ack_legacy' },
    ));
});
