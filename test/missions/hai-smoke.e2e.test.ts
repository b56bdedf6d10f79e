import { strict as assert } from 'node:assert';
import { mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { haiServer } from './hai-client.js';

/**
 * HAI-MCP's stdio smoke script (scripts/stdio_smoke.py), step by step and predicate by
 * predicate, against `intentlog mcp --surface missions` started with only HAI_HOME and
 * HAI_OWNER_HOME set. Each `it` is one step of the script; they share one server, in order.
 */

const EXPECTED_TOOLS = [
  'hai_health',
  'hai_status',
  'hai_get_next_step',
  'hai_read_artifacts',
  'hai_park',
  'hai_set_focus',
  'hai_propose_next_step',
  'hai_accept_next_step',
  'hai_checkpoint',
  'hai_recover',
  'hai_open_mission',
  'hai_bind_project',
  'hai_authorize_session',
  'hai_learning_start',
  'hai_learning_complete',
  'hai_learning_abandon',
  'hai_get_contract',
  'hai_check_activity',
  'hai_park_item',
  'hai_recontract',
  'hai_close_mission',
  'hai_intake',
  'hai_distill',
  'hai_mission_start',
  'hai_drift_check',
  'hai_proof',
  'hai_stop',
];

describe('HAI-MCP stdio smoke, unchanged, against intentlog', () => {
  let hai: Awaited<ReturnType<typeof haiServer>>;
  let project: string;
  const state: { mid?: unknown; ver?: unknown; sid?: unknown } = {};
  before(async () => {
    hai = await haiServer();
    project = join(hai.dirs.home, 'project');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, 'out.md'), 'smoke\n');
  });
  after(() => hai.close());

  it('list_tools: the 27 tools, none missing', async () => {
    const names = await hai.tools();
    assert.deepEqual(
      EXPECTED_TOOLS.filter((t) => !names.includes(t)),
      [],
    );
    assert.equal(names.length, 27);
  });

  it('hai_health: ok, hai_home is HAI_HOME', async () => {
    const health = await hai.call('hai_health', {});
    assert.equal(health.ok, true);
    assert.equal(await realpath(String(health.hai_home)), await realpath(hai.dirs.home));
  });

  it('an integer owner_ack does not promote: owner_gate_required', async () => {
    await mkdir(join(project, 'Projek-Managment'), { recursive: true });
    await hai.call('hai_propose_next_step', { project_path: project, content: '# smoke gate\n' });
    const denied = await hai.call('hai_accept_next_step', {
      project_path: project,
      owner_ack: 1,
      reason: 'smoke truthy int',
    });
    assert.equal(denied.ok, false);
    assert.equal(denied.error, 'owner_gate_required');
  });

  it('the owner code is in a C-*.txt file of HAI_OWNER_HOME', async () => {
    const files = (await readdir(hai.dirs.owner)).filter((f) => /^C-.*\.txt$/.test(f));
    assert.equal(files.length, 1, 'one challenge file');
    const text = await readFile(join(hai.dirs.owner, files[0]!), 'utf8');
    assert.match(text, /HAI owner code: [2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}/);
  });

  it('hai_mission_start: active, with a mission id', async () => {
    const opened = await hai.call('hai_mission_start', {
      problem: 'write a single smoke note into out.md',
      artifact: 'out.md',
      done_criteria: [{ id: 'c1', description: 'out.md exists', evidence: 'file' }],
      owner: 'smoke',
      time_limit_hours: 1,
      constraints: {
        project_path: project,
        allowed_paths: ['.'],
        capabilities: ['read', 'write'],
      },
    });
    assert.equal(opened.ok, true, JSON.stringify(opened));
    assert.equal(opened.status, 'active');
    assert.ok(opened.mission_id);
    state.mid = opened.mission_id;
    state.ver = opened.contract_version;
  });

  it('hai_authorize_session by mission id alone', async () => {
    const auth = await hai.call('hai_authorize_session', {
      mission_id: state.mid,
      contract_version: state.ver,
      agent_identity: 'smoke-agent',
      role: 'coder',
      contribution: 'smoke write',
      expected_result: 'out.md',
      duration_minutes: 30,
      criterion_ids: ['c1'],
      request_id: 'stdio-smoke-writer-1',
      capabilities: ['read', 'write'],
    });
    assert.equal(auth.ok, true, JSON.stringify(auth));
    assert.ok(auth.session_id);
    state.sid = auth.session_id;
  });

  it('hai_drift_check of /etc/passwd: drift, stop', async () => {
    const drift = await hai.call('hai_drift_check', {
      session_id: state.sid,
      activity_step: 'touching secrets',
      criterion_id: 'c1',
      affected_paths: ['/etc/passwd'],
      declares_blocker: true,
    });
    assert.equal(drift.classification, 'drift', JSON.stringify(drift));
    assert.equal(drift.required_action, 'stop');
  });

  it('hai_close_mission with {c1: {path}}: completed, c1 verified', async () => {
    const evidence = join(project, 'out.md');
    await writeFile(evidence, 'stdio smoke evidence\n');
    const close = await hai.call('hai_close_mission', {
      mission_id: state.mid,
      contract_version: state.ver,
      closure: 'completed',
      outcome_summary: 'stdio smoke completed with local evidence',
      evidence: { c1: { path: evidence } },
    });
    assert.equal(close.ok, true, JSON.stringify(close));
    assert.equal(close.status, 'completed');
    assert.ok('c1' in (close.verified_criteria as object));
  });
});
