import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { haiServer, type Answer } from './hai-client.js';

/**
 * HAI-MCP's call forms, unchanged, through a real MCP client over stdio (`intentlog mcp
 * --surface missions`, started with only HAI-MCP's variables): what its clients send (ids
 * without a project, `null` for what they leave out, criteria with `verifiable` and
 * `evidence`, `{path}` evidence, `owner_ack` of any type, a recontract carrying back the
 * constraints a mission returned) and the fields they read (`validation`, `remaining_seconds`,
 * `verified_criteria` with hashes, the refused recontract's `diff`, the `owner_gate` echo).
 */

type Server = Awaited<ReturnType<typeof haiServer>>;

const ok = (a: Answer): Answer => {
  assert.equal(a.ok, true, JSON.stringify(a));
  return a;
};

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** A fresh project directory (one active mission per project). */
const projectIn = async (hai: Server, name: string) => {
  const dir = join(hai.dirs.scratch, name);
  await mkdir(dir, { recursive: true });
  return dir;
};

const contract = (project: string, extra: Record<string, unknown> = {}) => ({
  objective: 'Ship the CSV export',
  artifact: 'csv.ts',
  done_criteria: [
    { id: 'C1', description: 'csv.ts writes CSV', evidence: 'file', verifiable: true },
  ],
  owner: 'sam',
  non_goals: ['pdf export'],
  constraints: { project_path: project, allowed_paths: ['.'], capabilities: ['read', 'write'] },
  ...extra,
});

const lease = (mission: Answer, request_id: string) => ({
  mission_id: mission.mission_id,
  contract_version: mission.contract_version,
  agent_identity: 'claude',
  role: 'coder',
  contribution: 'the exporter',
  expected_result: 'csv.ts',
  duration_minutes: 30,
  criterion_ids: ['C1'],
  request_id,
  capabilities: ['read', 'write'],
});

/** The code the owner reads in `<challenge_id>.txt`, the file HAI-MCP's owner workflow reads. */
const codeFor = async (hai: Server, challengeId: unknown) => {
  const text = await readFile(join(hai.dirs.owner, `${String(challengeId)}.txt`), 'utf8');
  const code = /^HAI owner code: (\S+)$/m.exec(text)?.[1];
  assert.ok(code, text);
  return code;
};

describe('HAI-MCP call forms over stdio, gate ack_legacy', () => {
  let hai: Server;
  before(async () => (hai = await haiServer({ gate: 'ack_legacy' })));
  after(() => hai.close());

  it('null is a field left out, at the top and in a criterion; verifiable and evidence taken', async () => {
    const project = await projectIn(hai, 'nulls');
    const mission = ok(
      await hai.call('hai_open_mission', {
        ...contract(project, { non_goals: null }),
        done_criteria: [
          { id: 'C1', description: 'csv.ts writes CSV', evidence: null, verifiable: null },
          { id: null, description: 'tests cover empty weeks', evidence: 'file' },
        ],
      }),
    );
    assert.equal(mission.validation, 'validated');
    assert.equal(mission.status, 'active');
    assert.deepEqual((mission.contract as { done_criteria: unknown }).done_criteria, [
      { id: 'C1', description: 'csv.ts writes CSV' },
      { id: 'dc-2', description: 'tests cover empty weeks' },
    ]);
    const session = ok(await hai.call('hai_authorize_session', lease(mission, 'nulls-1')));
    const unclear = ok(
      await hai.call('hai_check_activity', {
        session_id: session.session_id,
        activity_step: 'look around',
        criterion_id: null,
        affected_paths: null,
        trace_events: null,
        activity_kind: null,
        evidence: null,
      }),
    );
    assert.deepEqual([unclear.classification, unclear.required_action], ['unclear', 'pause']);
  });

  it('a criterion without a description, or not verifiable: review_required with issues', async () => {
    const project = await projectIn(hai, 'review');
    const missing = await hai.call('hai_open_mission', {
      ...contract(project),
      done_criteria: [{ id: 'C1', description: null }],
    });
    assert.equal(missing.error, 'review_required');
    assert.equal(missing.validation, 'review_required');
    assert.deepEqual(missing.issues, ['done_criteria[C1] missing description']);
    const unverifiable = await hai.call('hai_open_mission', {
      ...contract(project),
      done_criteria: [{ id: 'C1', description: 'feels better', verifiable: false }],
    });
    assert.deepEqual(unverifiable.issues, ['done_criteria[C1] is not verifiable']);
  });

  it('a lease by mission id alone; its contract by session id, with remaining_seconds', async () => {
    const project = await projectIn(hai, 'lease');
    const { objective: _objective, ...start } = contract(project);
    const mission = ok(
      await hai.call('hai_mission_start', {
        problem: 'Ship the CSV export',
        ...start,
        time_limit_hours: 1,
      }),
    );
    const session = ok(await hai.call('hai_authorize_session', lease(mission, 'lease-1')));
    const again = ok(await hai.call('hai_authorize_session', lease(mission, 'lease-1')));
    assert.equal(again.session_id, session.session_id, 'a request_id retry is the same lease');
    const got = ok(await hai.call('hai_get_contract', { session_id: session.session_id }));
    assert.equal(got.contract_hash, mission.contract_hash);
    assert.ok(Number(got.remaining_seconds) > 1700 && Number(got.remaining_seconds) <= 1800);
    assert.deepEqual(got.done_criteria, [{ id: 'C1', description: 'csv.ts writes CSV' }]);
    assert.deepEqual(got.non_goals, ['pdf export']);
    const unknown = await hai.call('hai_get_contract', {
      session_id: 'S-20261201T100000-00000000',
    });
    assert.equal(unknown.error, 'invalid_args');
  });

  it('activity forms: trace_events, a sensitive activity_kind, a blocker, a path outside', async () => {
    const project = await projectIn(hai, 'activity');
    const mission = ok(await hai.call('hai_open_mission', contract(project)));
    const s = ok(await hai.call('hai_authorize_session', lease(mission, 'act-1'))).session_id;
    const step = { session_id: s, activity_step: 'write the csv writer', criterion_id: 'C1' };
    const traced = ok(
      await hai.call('hai_check_activity', {
        ...step,
        trace_events: [{ action: 'edit', file: 'csv.ts' }, { action: 'push' }],
        evidence: { log: 'ran' },
      }),
    );
    assert.deepEqual([traced.classification, traced.required_action], ['drift', 'stop']);
    assert.deepEqual(traced.evidence, { log: 'ran' });
    const secrets = ok(
      await hai.call('hai_drift_check', {
        ...step,
        activity_step: 'exfiltrate secrets',
        activity_kind: 'secrets',
      }),
    );
    assert.equal(secrets.classification, 'drift');
    const blocked = ok(await hai.call('hai_drift_check', { ...step, declares_blocker: true }));
    assert.deepEqual([blocked.classification, blocked.required_action], ['blocker', 'pause']);
    const outside = ok(
      await hai.call('hai_check_activity', { ...step, affected_paths: ['/etc/passwd'] }),
    );
    assert.deepEqual([outside.classification, outside.required_action], ['drift', 'stop']);
    const fine = ok(await hai.call('hai_check_activity', { ...step, affected_paths: ['csv.ts'] }));
    assert.deepEqual([fine.classification, fine.required_action], ['in_scope', 'continue']);
  });

  it('owner_ack 1, "true" or 0 is no acknowledgement; true passes, with the gate echoed', async () => {
    const project = await projectIn(hai, 'accept');
    ok(await hai.call('hai_propose_next_step', { project_path: project, content: 'header row' }));
    for (const owner_ack of [1, 'true', 0]) {
      const denied = await hai.call('hai_accept_next_step', {
        project_path: project,
        owner_ack,
        reason: 'r',
      });
      assert.equal(denied.error, 'owner_gate_required', String(owner_ack));
    }
    const accepted = ok(
      await hai.call('hai_accept_next_step', {
        project_path: project,
        owner_ack: true,
        reason: 'agreed',
        content: null,
      }),
    );
    assert.equal(accepted.content, 'header row');
    const echo = accepted.owner_gate as Record<string, unknown>;
    assert.equal(echo.gate, 'ack_legacy');
    assert.equal(echo.challenge_id, null);
    assert.match(String(echo.audit_event_id), /^position:\d+$/);
  });

  it('recontract: the refusal shows the diff; the returned constraints go back; break glass', async () => {
    const project = await projectIn(hai, 'recontract');
    const mission = ok(await hai.call('hai_open_mission', contract(project)));
    const s = ok(await hai.call('hai_authorize_session', lease(mission, 'rc-1'))).session_id;
    const returned = (mission.contract as { constraints: Record<string, unknown> }).constraints;
    const base = { mission_id: mission.mission_id, contract_version: 1, reason: 'more hands' };
    const changes = { constraints: { ...returned, max_parallel_sessions: 3 } };
    const refused = await hai.call('hai_recontract', { ...base, changes });
    assert.equal(refused.error, 'owner_gate_required');
    assert.deepEqual(refused.diff, [
      { field: 'constraints.max_parallel_sessions', before: 1, after: 3, old: 1, new: 3 },
    ]);
    assert.equal(refused.mode, 'normal');
    const noGlass = await hai.call('hai_recontract', {
      ...base,
      changes,
      owner_ack: true,
      mode: 'break_glass',
      break_glass_marker: 1,
    });
    assert.deepEqual(
      [noGlass.error, noGlass.detail],
      ['owner_gate_required', 'break_glass_marker_required'],
    );
    const done = ok(
      await hai.call('hai_recontract', {
        ...base,
        changes,
        owner_ack: true,
        mode: 'break_glass',
        break_glass_marker: true,
      }),
    );
    assert.equal(done.contract_version, 2);
    assert.equal(done.audit_classification, 'break_glass');
    assert.deepEqual(done.revoked_sessions, [s]);
    assert.equal((done.owner_gate as { gate: string }).gate, 'ack_legacy');
    const stale = await hai.call('hai_get_contract', { session_id: s });
    assert.equal(stale.error, 'lease_revoked');
  });

  it('close: {path} evidence verified with its hash; an abandon gives its reason as the summary', async () => {
    const project = await projectIn(hai, 'close');
    const mission = ok(await hai.call('hai_open_mission', contract(project)));
    const body = 'export const csv = () => "a,b";\n';
    await writeFile(join(project, 'csv.ts'), body);
    const close = {
      mission_id: mission.mission_id,
      contract_version: 1,
      outcome_summary: 'shipped',
    };
    const none = ok(await hai.call('hai_close_mission', { ...close, closure: 'completed' }));
    assert.equal(none.status, 'incomplete');
    assert.deepEqual(none.missing_criteria, ['C1']);
    const done = ok(
      await hai.call('hai_close_mission', {
        ...close,
        closure: 'completed',
        evidence: { C1: { path: join(project, 'csv.ts') } },
        owner_ack: null,
      }),
    );
    assert.equal(done.status, 'completed');
    const verified = done.verified_criteria as Record<string, { path: string; sha256: string }>;
    assert.deepEqual([verified.C1!.path, verified.C1!.sha256], ['csv.ts', sha256(body)]);

    const other = await projectIn(hai, 'abandon');
    const second = ok(await hai.call('hai_open_mission', contract(other)));
    const abandon = {
      mission_id: second.mission_id,
      contract_version: 1,
      closure: 'abandoned',
      outcome_summary: 'priorities changed',
    };
    const denied = await hai.call('hai_close_mission', { ...abandon, owner_ack: 1 });
    assert.equal(denied.error, 'owner_gate_required');
    const gone = ok(await hai.call('hai_close_mission', { ...abandon, owner_ack: true }));
    assert.equal(gone.status, 'abandoned');
    assert.equal(gone.reason, 'priorities changed');
    assert.equal((gone.owner_gate as { gate: string }).gate, 'ack_legacy');
  });

  it('intake, distill (parked_count), and a stop that revokes the lease, plans nothing', async () => {
    const captured = ok(await hai.call('hai_intake', { raw: 'rebuild HAI, move to Mac, router' }));
    assert.match(String(captured.intake_id), /^I-/);
    const bundled = await hai.call('hai_distill', {
      intake_id: captured.intake_id,
      decision: 'do A\ndo B\ndo C',
      next_step: 'one step',
    });
    assert.equal(bundled.error, 'invalid_args');
    const distilled = ok(
      await hai.call('hai_distill', {
        intake_id: captured.intake_id,
        decision: 'Harden the MCP core',
        next_step: 'Write the failing path test',
        parklist: ['idea A', 'idea B', 'idea C'],
      }),
    );
    assert.equal(distilled.parked_count, 3);

    const project = await projectIn(hai, 'stop');
    const mission = ok(await hai.call('hai_open_mission', contract(project)));
    const s = ok(await hai.call('hai_authorize_session', lease(mission, 'stop-1'))).session_id;
    const stopped = ok(
      await hai.call('hai_stop', {
        project_path: project,
        day: '2026-12-01',
        loop_closed: true,
        clearer: 'yes',
        agency_gained: 'read the diff myself',
        manual_practice: ['git diff', '  ', 'ran the tests'],
      }),
    );
    assert.equal(stopped.status, 'day_stopped');
    assert.equal(stopped.next_mission, null);
    assert.deepEqual(stopped.revoked_sessions, [s]);
    assert.deepEqual(stopped.manual_practice, ['git diff', 'ran the tests']);
    assert.equal((await hai.call('hai_get_contract', { session_id: s })).ok, false);
    const bad = await hai.call('hai_stop', {
      day: '2026-12-02',
      loop_closed: true,
      clearer: 'c',
      agency_gained: 'a',
      manual_practice: 'git',
    });
    assert.equal(bad.error, 'invalid_args');
  });

  it('learning blocks without a project: start, then abandon by block id', async () => {
    const started = ok(
      await hai.call('hai_learning_start', {
        topic: 'CSV quoting',
        intended_output_path: 'quoting.md',
      }),
    );
    assert.match(String(started.block_id), /^LB-\d{8}T\d{6}-[0-9a-f]{8}$/);
    const early = await hai.call('hai_learning_complete', {
      block_id: started.block_id,
      own_activity: 'read RFC 4180',
      learned: 'quotes are doubled',
      open_question: 'a BOM?',
      evidence_paths: ['quoting.md'],
      owner_ack: true,
    });
    assert.equal(early.error, 'learning_time_required');
    assert.ok(Number(early.remaining_seconds) > 0);
    const gone = ok(
      await hai.call('hai_learning_abandon', {
        block_id: started.block_id,
        reason: 'later',
        owner_ack: true,
      }),
    );
    assert.equal(gone.credits_minted, 0);
  });
});

describe('HAI-MCP call forms over stdio, gate nonce (the default)', () => {
  let hai: Server;
  before(async () => (hai = await haiServer()));
  after(() => hai.close());

  it('accept: pending challenge, the code from C-*.txt, then the gate echoed', async () => {
    const project = await projectIn(hai, 'accept');
    const at = { project_path: project, content: 'write the header row' };
    const pending = await hai.call('hai_accept_next_step', at);
    assert.equal(pending.error, 'owner_gate_required');
    assert.equal(pending.status, 'pending_owner_code');
    assert.equal(pending.attempts_remaining, 3);
    assert.equal(pending.channel, 'file');
    assert.match(String(pending.fingerprint), /^sha256:/);
    assert.match(String(pending.challenge_id), /^C-/);
    const same = await hai.call('hai_accept_next_step', at);
    assert.equal(same.challenge_id, pending.challenge_id, 'asking again: the same challenge');
    const wrong = await hai.call('hai_accept_next_step', { ...at, owner_code: 'AAAA-AAAA' });
    assert.deepEqual([wrong.error, wrong.detail], ['owner_gate_required', 'invalid_owner_code']);
    assert.equal(wrong.attempts_remaining, 2);
    const malformed = await hai.call('hai_accept_next_step', { ...at, owner_code: 'nope' });
    assert.equal(malformed.detail, 'malformed_owner_code');
    const code = await codeFor(hai, pending.challenge_id);
    const accepted = ok(await hai.call('hai_accept_next_step', { ...at, owner_code: code }));
    assert.deepEqual(accepted.owner_gate && Object.keys(accepted.owner_gate).sort(), [
      'audit_event_id',
      'challenge_id',
      'gate',
    ]);
    const echo = accepted.owner_gate as Record<string, unknown>;
    assert.deepEqual([echo.gate, echo.challenge_id], ['nonce', pending.challenge_id]);
    const spent = await hai.call('hai_accept_next_step', { ...at, owner_code: code });
    assert.equal(spent.detail, 'no_pending_challenge');
  });

  it('recontract and abandon: the diff in the pending answer, the code, the echo', async () => {
    const project = await projectIn(hai, 'recontract');
    const mission = ok(await hai.call('hai_open_mission', contract(project)));
    const base = {
      mission_id: mission.mission_id,
      contract_version: 1,
      reason: 'narrower',
      changes: { non_goals: ['pdf export', 'xlsx export'] },
    };
    const pending = await hai.call('hai_recontract', base);
    assert.equal(pending.status, 'pending_owner_code');
    assert.deepEqual(pending.diff, [
      {
        field: 'non_goals',
        before: ['pdf export'],
        after: ['pdf export', 'xlsx export'],
        old: ['pdf export'],
        new: ['pdf export', 'xlsx export'],
      },
    ]);
    const code = await codeFor(hai, pending.challenge_id);
    const done = ok(await hai.call('hai_recontract', { ...base, owner_code: code }));
    assert.equal(done.contract_version, 2);
    assert.equal(done.audit_classification, null);
    assert.equal((done.owner_gate as { challenge_id: string }).challenge_id, pending.challenge_id);

    const abandon = {
      mission_id: mission.mission_id,
      contract_version: 2,
      closure: 'abandoned',
      outcome_summary: 'superseded',
    };
    const asked = await hai.call('hai_close_mission', abandon);
    assert.equal(asked.status, 'pending_owner_code');
    const gone = ok(
      await hai.call('hai_close_mission', {
        ...abandon,
        owner_code: await codeFor(hai, asked.challenge_id),
      }),
    );
    assert.equal(gone.status, 'abandoned');
    assert.equal((gone.owner_gate as { gate: string }).gate, 'nonce');
  });
});
