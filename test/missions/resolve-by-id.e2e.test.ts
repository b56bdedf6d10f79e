import { strict as assert } from 'node:assert';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { connect } from '../mcp/harness.js';
import { codeOf, contractArgs, withMissions, type Envelope } from './harness.js';

/**
 * Calls that name no project (HAI-MCP's tools take ids): the project is their mission's,
 * session's, intake's or checkpoint's, else the local user's home project.
 */

const ok = (e: Envelope) => {
  assert.equal(e.ok, true, JSON.stringify(e));
  return e;
};

const leaseArgs = (mission_id: unknown) => ({
  mission_id,
  contract_version: 1,
  agent_identity: 'claude',
  role: 'implementer',
  contribution: 'the exporter',
  expected_result: 'csv.ts',
  duration_minutes: 30,
  criterion_ids: ['C1'],
});

describe('calls that name no project', () => {
  it('find the project by mission, session, intake and checkpoint id', () =>
    withMissions(async ({ call, dirs }) => {
      const at = { project_path: dirs.project };
      const mission = ok(await call('hai_open_mission', contractArgs(dirs.project)));
      const lease = ok(await call('hai_authorize_session', leaseArgs(mission.mission_id)));
      assert.equal(lease.project_id, mission.project_id);
      const contract = ok(await call('hai_get_contract', { session_id: lease.session_id }));
      assert.equal(contract.mission_id, mission.mission_id);
      const check = ok(
        await call('hai_check_activity', {
          session_id: lease.session_id,
          activity_step: 'write the csv writer',
          criterion_id: 'C1',
          affected_paths: ['src/export/csv.ts'],
        }),
      );
      assert.equal(check.required_action, 'continue');
      const intake = ok(await call('hai_intake', { ...at, raw: 'csv export' }));
      assert.match(String(intake.intake_id), /^I-/);
      const distilled = ok(
        await call('hai_distill', {
          intake_id: intake.intake_id,
          decision: 'csv first',
          next_step: 'write csv.ts',
        }),
      );
      assert.equal(distilled.project_id, mission.project_id);
      const cp = ok(await call('hai_checkpoint', at));
      const recovered = ok(await call('hai_recover', { checkpoint_id: cp.checkpoint_id }));
      assert.equal(recovered.project_id, mission.project_id);
      const abandon = await call('hai_close_mission', {
        mission_id: mission.mission_id,
        contract_version: 1,
        closure: 'abandoned',
        outcome_summary: 'not needed',
      });
      assert.equal(abandon.error, 'owner_gate_required');
      assert.equal(abandon.status, 'pending_owner_code', 'resolved, and the gate asked');
    }));

  it('refuse a malformed id and an unknown one as HAI-MCP does', () =>
    withMissions(async ({ app, call }) => {
      const head = await app.log.head();
      assert.equal(
        codeOf(await call('hai_get_contract', { session_id: '../../escape' })),
        'invalid_args',
      );
      const unknown = await call('hai_get_contract', { session_id: 'session_nope' });
      assert.equal(codeOf(unknown), 'invalid_args');
      assert.equal(unknown.message, 'session not found: session_nope');
      assert.equal(unknown.required_action, 'pause');
      assert.equal(
        codeOf(await call('hai_authorize_session', leaseArgs('mission_nope'))),
        'mission_not_active',
      );
      assert.equal(
        codeOf(await call('hai_distill', { intake_id: 'I-1', decision: 'd', next_step: 'n' })),
        'invalid_args',
      );
      assert.equal(await app.log.head(), head);
    }));

  it('answer a stranger’s id exactly as an unknown one', () =>
    withMissions(async ({ app, call, dirs }) => {
      const mission = ok(await call('hai_open_mission', contractArgs(dirs.project)));
      const lease = ok(await call('hai_authorize_session', leaseArgs(mission.mission_id)));
      const bob = await connect(app, resolveSurfaces(surfacesOf(modules), 'missions'), {
        kind: 'actor',
        actor_id: 'bob',
      });
      try {
        const as = async (name: string, args: Record<string, unknown>) =>
          (await bob.callTool({ name, arguments: args })).structuredContent as Envelope;
        const theirs = await as('hai_get_contract', { session_id: lease.session_id });
        const none = await as('hai_get_contract', { session_id: 'session_nope' });
        assert.equal(codeOf(theirs), 'invalid_args');
        assert.equal(theirs.message, `session not found: ${String(lease.session_id)}`);
        assert.deepEqual(Object.keys(theirs).sort(), Object.keys(none).sort());
        const mine = await as('hai_authorize_session', leaseArgs(mission.mission_id));
        const nobody = await as('hai_authorize_session', leaseArgs('mission_nope'));
        assert.deepEqual(
          [codeOf(mine), mine.message, mine.status],
          [codeOf(nobody), nobody.message, nobody.status],
        );
        // an actor naming nothing at all must name its project
        assert.equal(codeOf(await as('hai_park', { text: 'x' })), 'invalid_args');
      } finally {
        await bob.close();
      }
    }));

  it('park, status and stop without a project: the local user’s home project', () =>
    withMissions(async ({ call, dirs }) => {
      ok(await call('hai_park', { text: 'dark mode', tags: ['ui'] }));
      const status = ok(await call('hai_status', {}));
      assert.equal(status.inbox_count, 1);
      assert.equal(status.root, await realpath(join(dirs.data, 'home')));
      const opened = ok(
        await call('hai_open_mission', { ...contractArgs(dirs.project), constraints: {} }),
      );
      assert.equal(opened.project_id, status.project_id);
      ok(
        await call('hai_stop', {
          day: '2026-12-01',
          loop_closed: true,
          clearer: 'the shape',
          agency_gained: 'reading specs',
        }),
      );
    }));
});
