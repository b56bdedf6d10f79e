import { strict as assert } from 'node:assert';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { artifactsWritten, contractArgs, withMissions, type Envelope } from './harness.js';

const ok = (e: Envelope) => {
  assert.equal(e.ok, true, JSON.stringify(e));
  return e.result!;
};
const code = (e: Envelope) => {
  assert.equal(e.ok, false, 'expected a refusal');
  return e.error!;
};

describe('a mission lifecycle through a real MCP client', () => {
  it('intake → distill → open → authorize → check (every class) → checkpoint → recontract (gate) → close → proof → stop', () =>
    withMissions(async ({ app, call, dirs, ownerCode, clock }) => {
      const at = { project_path: dirs.project };
      const intake = ok(
        await call('hai_intake', { ...at, raw: 'csv export, maybe pdf, and dark mode' }),
      );
      assert.equal(intake.actionable, false);
      const distilled = ok(
        await call('hai_distill', {
          ...at,
          intake_id: intake.intake_id,
          decision: 'csv export first',
          next_step: 'write csv.ts',
          parklist: ['pdf export', 'dark mode'],
        }),
      );
      assert.equal((distilled.parked_item_ids as string[]).length, 2);

      const vague = await call(
        'hai_open_mission',
        contractArgs(dirs.project, { objective: 'stuff', artifact: '' }),
      );
      assert.equal(code(vague), 'review_required');
      // HAI-MCP's clients search the issues as strings; the details keep field and code
      assert.deepEqual(vague.issues, [
        'objective is too broad to be verifiable',
        'artifact is required',
      ]);
      const details = vague.issue_details as { code: string }[];
      assert.deepEqual(
        details.map((i) => i.code),
        ['objective_vague', 'artifact_missing'],
      );

      const mission = ok(await call('hai_open_mission', contractArgs(dirs.project)));
      assert.equal(mission.contract_version, 1);
      assert.match(String(mission.contract_hash), /^sha256:[0-9a-f]{64}$/);
      const { objective: _o, ...startArgs } = contractArgs(dirs.project);
      const second = await call('hai_mission_start', {
        ...startArgs,
        problem: 'Another mission in the same project',
      });
      assert.equal(code(second), 'active_mission_exists', JSON.stringify(second.error));

      const lease = ok(
        await call('hai_authorize_session', {
          ...at,
          mission_id: mission.mission_id,
          contract_version: 1,
          agent_identity: 'claude',
          role: 'implementer',
          contribution: 'the exporter',
          expected_result: 'csv.ts and its tests',
          duration_minutes: 60,
          criterion_ids: ['C1', 'C2'],
          request_id: 'r1',
        }),
      );
      const session = { ...at, session_id: lease.session_id };
      const check = async (args: Record<string, unknown>) =>
        ok(await call('hai_check_activity', { ...session, ...args }));
      const base = {
        activity_step: 'write the csv writer',
        criterion_id: 'C1',
        affected_paths: ['src/export/csv.ts'],
      };
      assert.equal((await check(base)).required_action, 'continue');
      assert.equal((await check({ ...base, declares_blocker: true })).classification, 'blocker');
      assert.equal(
        (await check({ ...base, activity_step: 'add the PDF export too' })).required_action,
        'park',
      );
      assert.equal(
        (await check({ ...base, affected_paths: ['../elsewhere/x'] })).required_action,
        'stop',
      );
      assert.equal((await check({ ...base, activity_kind: 'push' })).classification, 'drift');
      assert.equal((await check({ activity_step: 'tidy up' })).classification, 'unclear');
      const drift = ok(
        await call('hai_drift_check', { ...session, ...base, affected_paths: ['src/billing.ts'] }),
      );
      assert.equal(drift.classification, 'drift');

      const cp = ok(await call('hai_checkpoint', { ...at, note: 'exporter half done' }));
      assert.equal(cp.mission_id, mission.mission_id);

      const change = {
        mission_id: mission.mission_id,
        contract_version: 1,
        reason: 'more hands',
        changes: { constraints: { max_parallel_sessions: 3 } },
      };
      const asked = await call('hai_recontract', { ...at, ...change });
      assert.equal(code(asked), 'owner_gate_required');
      assert.equal(asked.status, 'pending_owner_code');
      assert.equal(asked.attempts_remaining, 3);
      assert.deepEqual(asked.diff, [
        { field: 'constraints.max_parallel_sessions', before: 2, after: 3, old: 2, new: 3 },
      ]);
      assert.equal(asked.mode, 'normal');
      const recontracted = ok(
        await call('hai_recontract', { ...at, ...change, owner_code: await ownerCode() }),
      );
      assert.equal(recontracted.contract_version, 2);
      assert.deepEqual(recontracted.diff, [
        { field: 'constraints.max_parallel_sessions', before: 2, after: 3, old: 2, new: 3 },
      ]);
      assert.deepEqual(recontracted.revoked_sessions, [lease.session_id]);
      assert.equal(
        code(await call('hai_check_activity', { ...session, ...base })),
        'lease_revoked',
      );

      const lease2 = ok(
        await call('hai_authorize_session', {
          ...at,
          mission_id: mission.mission_id,
          contract_version: 2,
          agent_identity: 'claude',
          role: 'implementer',
          contribution: 'tests',
          expected_result: 'tests',
          duration_minutes: 30,
          criterion_ids: ['C2'],
          request_id: 'r2',
        }),
      );
      clock.advance(31 * 60);
      const expired = await call('hai_get_contract', { ...at, session_id: lease2.session_id });
      assert.equal(code(expired), 'lease_expired');
      assert.equal(expired.required_action, 'pause');

      await mkdir(join(dirs.project, 'src/export'), { recursive: true });
      await writeFile(join(dirs.project, 'src/export/csv.ts'), 'export {};\n');
      const close = {
        ...at,
        mission_id: mission.mission_id,
        contract_version: 2,
        outcome_summary: 'csv export ships',
      };
      const incomplete = ok(
        await call('hai_close_mission', {
          ...close,
          closure: 'completed',
          evidence: { C1: { paths: ['src/export/csv.ts'] } },
        }),
      );
      assert.equal(incomplete.status, 'incomplete');
      assert.deepEqual(incomplete.missing_criteria, ['C2']);
      await mkdir(join(dirs.project, 'test'), { recursive: true });
      await writeFile(join(dirs.project, 'test/csv.test.ts'), 'export {};\n');
      const proof = ok(
        await call('hai_proof', {
          ...close,
          evidence: {
            C1: { paths: ['src/export/csv.ts'] },
            C2: { paths: ['test/csv.test.ts'], note: 'empty weeks' },
          },
        }),
      );
      assert.equal(proof.status, 'completed');

      const stop = ok(
        await call('hai_stop', {
          ...at,
          day: '2026-12-01',
          loop_closed: true,
          clearer: 'the export shape',
          agency_gained: 'I can read the CSV spec',
        }),
      );
      assert.equal(stop.next_mission_planned, false);
      const status = ok(await call('hai_status', at));
      assert.equal(status.active_mission, null);
      await artifactsWritten(app);
      const state = await readFile(join(dirs.project, 'Projek-Managment/PROJECT_STATE.md'), 'utf8');
      assert.match(state, /completed/);
    }));
});
