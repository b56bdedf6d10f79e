import { strict as assert } from 'node:assert';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { codeOf, contractArgs, withMissions, type Envelope } from './harness.js';

/** Issue 30's defects, each through a real MCP client; a refusal appends nothing. */

const ok = (e: Envelope) => {
  assert.equal(e.ok, true, JSON.stringify(e));
  return e;
};

describe('issue 30 defects', () => {
  it('#1 a directory is not evidence: incomplete, invalid_evidence, nothing written', () =>
    withMissions(async ({ app, call, dirs }) => {
      const at = { project_path: dirs.project };
      await mkdir(join(dirs.project, 'src/export'), { recursive: true });
      await mkdir(join(dirs.project, 'test'), { recursive: true });
      const mission = ok(await call('hai_open_mission', contractArgs(dirs.project)));
      const head = await app.log.head();
      const close = ok(
        await call('hai_close_mission', {
          ...at,
          mission_id: mission.mission_id,
          contract_version: 1,
          closure: 'completed',
          outcome_summary: 'directories only',
          evidence: { C1: { paths: ['src/export'] }, C2: { paths: ['test'] } },
        }),
      );
      assert.equal(close.status, 'incomplete');
      assert.deepEqual(close.missing_criteria, ['C1', 'C2']);
      const invalid = close.invalid_evidence as { criterion_id: string; error: string }[];
      assert.deepEqual(
        invalid.map((i) => [i.criterion_id, i.error]),
        [
          ['C1', 'invalid_args'],
          ['C2', 'invalid_args'],
        ],
      );
      assert.match(JSON.stringify(invalid), /directory/);
      assert.equal(await app.log.head(), head, 'an incomplete close appends nothing');
      const status = ok(await call('hai_status', at));
      assert.equal(
        (status.active_mission as { mission_id: string }).mission_id,
        mission.mission_id,
      );
    }));

  it('#3 a blank raw thought, decision or park text is invalid_args', () =>
    withMissions(async ({ app, call, dirs }) => {
      const at = { project_path: dirs.project };
      const intake = ok(await call('hai_intake', { ...at, raw: 'csv export' }));
      const head = await app.log.head();
      assert.equal(codeOf(await call('hai_intake', { ...at, raw: '   ' })), 'invalid_args');
      assert.equal(codeOf(await call('hai_park', { ...at, text: ' \n\t' })), 'invalid_args');
      assert.equal(
        codeOf(
          await call('hai_distill', {
            ...at,
            intake_id: intake.intake_id,
            decision: '  ',
            next_step: 'write csv.ts',
          }),
        ),
        'invalid_args',
      );
      assert.equal(await app.log.head(), head);
    }));

  it('#4 three decisions on three lines are not one decision', () =>
    withMissions(async ({ app, call, dirs }) => {
      const at = { project_path: dirs.project };
      const intake = ok(await call('hai_intake', { ...at, raw: 'csv export' }));
      const head = await app.log.head();
      const bundled = await call('hai_distill', {
        ...at,
        intake_id: intake.intake_id,
        decision: 'do A\ndo B\ndo C',
        next_step: 'write csv.ts',
      });
      assert.equal(codeOf(bundled), 'invalid_args');
      assert.match(String(bundled.message), /single/);
      assert.equal(await app.log.head(), head);
    }));

  it('#6 activity_kind "secrets" on "exfiltrate secrets" is drift: stop', () =>
    withMissions(async ({ call, dirs }) => {
      const at = { project_path: dirs.project };
      const mission = ok(await call('hai_open_mission', contractArgs(dirs.project)));
      const lease = ok(
        await call('hai_authorize_session', {
          ...at,
          mission_id: mission.mission_id,
          contract_version: 1,
          agent_identity: 'claude',
          role: 'implementer',
          contribution: 'the exporter',
          expected_result: 'csv.ts',
          duration_minutes: 30,
          criterion_ids: ['C1'],
          request_id: 'r1',
        }),
      );
      const check = ok(
        await call('hai_check_activity', {
          ...at,
          session_id: lease.session_id,
          activity_step: 'exfiltrate secrets',
          criterion_id: 'C1',
          activity_kind: 'secrets',
        }),
      );
      assert.deepEqual([check.classification, check.required_action], ['drift', 'stop']);
    }));
});
