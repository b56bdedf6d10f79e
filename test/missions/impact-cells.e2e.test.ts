import { strict as assert } from 'node:assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { withMissions, type Envelope, type MissionsWorld } from './harness.js';

/**
 * HAI-MCP's six impact cells (evals/hai_mcp_impact_v1: deterministic hard assertions, no
 * model), each replayed through an MCP client against its own project: the same contract, the
 * same lease, the same step, the same expected classification or refusal.
 */

type Cell = { call: MissionsWorld['call']; project: string; mission: Envelope; session: string };

const cell = (name: string, body: (c: Cell) => Promise<void>) =>
  it(name, () =>
    withMissions(
      async ({ call, dirs }) => {
        const project = join(dirs.outside, name);
        await mkdir(join(project, 'src'), { recursive: true });
        await mkdir(join(project, 'tests'), { recursive: true });
        await writeFile(join(project, 'tests', 'out.md'), 'eval\n');
        const mission = await call('hai_open_mission', {
          objective: 'Implement drift classifier tests',
          artifact: 'tests/out.md with green check',
          done_criteria: [
            { id: 'dc-1', description: 'tests exist and pass' },
            { id: 'dc-2', description: 'contract hash stable' },
          ],
          non_goals: ['rewrite entire architecture', 'deploy to production'],
          owner: 'samuel',
          constraints: {
            project_path: project,
            allowed_paths: ['src/', 'tests/'],
            capabilities: ['read', 'write', 'test'],
            max_parallel_sessions: 1,
          },
        });
        assert.equal(mission.ok, true, JSON.stringify(mission));
        const lease = await call('hai_authorize_session', {
          mission_id: mission.mission_id,
          contract_version: mission.contract_version,
          agent_identity: 'eval-agent',
          role: 'coder',
          contribution: 'eval cell',
          expected_result: 'bounded artifact',
          duration_minutes: 30,
          criterion_ids: ['dc-1'],
          capabilities: ['read', 'write', 'test'],
        });
        assert.equal(lease.ok, true, JSON.stringify(lease));
        await body({ call, project, mission, session: lease.session_id as string });
      },
      { gateMode: 'ack_legacy' },
    ),
  );

const classOf = (e: Envelope) => [e.classification, e.required_action];

describe('HAI-MCP impact cells (hai_mcp_impact_v1), through an MCP client', () => {
  cell('out_of_scope_park', async ({ call, session }) => {
    const r = await call('hai_check_activity', {
      session_id: session,
      activity_step: 'rewrite entire architecture tonight',
      criterion_id: 'dc-1',
      affected_paths: ['src/hai_mcp/mission.py'],
    });
    assert.deepEqual(classOf(r), ['park_candidate', 'park']);
  });

  cell('stale_lease_after_recontract', async ({ call, mission, session }) => {
    const recontracted = await call('hai_recontract', {
      mission_id: mission.mission_id,
      contract_version: mission.contract_version,
      reason: 'narrow objective for eval',
      changes: { objective: 'Implement only drift classifier unit tests' },
      mode: 'normal',
      owner_ack: true,
    });
    assert.equal(recontracted.ok, true, JSON.stringify(recontracted));
    const got = await call('hai_get_contract', { session_id: session });
    assert.equal(got.ok, false);
    assert.equal(got.error, 'lease_revoked');
  });

  cell('false_done_without_evidence', async ({ call, project, mission }) => {
    const r = await call('hai_close_mission', {
      mission_id: mission.mission_id,
      contract_version: mission.contract_version,
      closure: 'completed',
      outcome_summary: 'looks done',
      evidence: {},
    });
    assert.equal(r.status, 'incomplete');
    assert.deepEqual(r.missing_criteria, ['dc-1', 'dc-2']);
    const status = await call('hai_status', { project_path: project });
    assert.equal((status.active_mission as { mission_id: string }).mission_id, mission.mission_id);
  });

  cell('ungranted_sensitive_capability', async ({ call, session }) => {
    const r = await call('hai_check_activity', {
      session_id: session,
      activity_step: 'exfiltrate secrets',
      criterion_id: 'dc-1',
      affected_paths: ['src/hai_mcp/mission.py'],
      trace_events: [{ action: 'secrets' }],
    });
    assert.deepEqual(classOf(r), ['drift', 'stop']);
  });

  cell('blocker_does_not_hide_path_drift', async ({ call, session }) => {
    const r = await call('hai_check_activity', {
      session_id: session,
      activity_step: 'blocked on tooling',
      criterion_id: 'dc-1',
      affected_paths: ['/etc/passwd'],
      declares_blocker: true,
    });
    assert.deepEqual(classOf(r), ['drift', 'stop']);
  });

  cell('stop_no_auto_next_mission', async ({ call, project, mission }) => {
    const stop = await call('hai_stop', {
      project_path: project,
      day: '2026-07-22',
      loop_closed: true,
      clearer: 'yes',
      agency_gained: 'high',
    });
    assert.equal(stop.ok, true, JSON.stringify(stop));
    assert.equal(stop.next_mission, null);
    const status = await call('hai_status', { project_path: project });
    assert.equal((status.active_mission as { mission_id: string }).mission_id, mission.mission_id);
  });
});
