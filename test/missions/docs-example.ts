import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contractArgs, withMissions, type MissionsWorld } from './harness.js';

/**
 * Writes the worked example of docs/missions.md: the daily loop and every tool of the surface,
 * each request and the envelope it got, through a real MCP client. Regenerate with
 *   npx tsx test/missions/docs-example.ts > .tmp/missions-example.md
 */
const steps: string[] = [];

const run = async (w: MissionsWorld) => {
  const root = w.dirs.project.replace(/\/project$/, '');
  const show = (v: unknown) => JSON.stringify(v, null, 2).split(root).join('/home/sam');
  const call = async (title: string, name: string, args: Record<string, unknown>) => {
    const envelope = await w.call(name, args);
    steps.push(
      `### ${steps.length + 1}. ${title}\n\n\`${name}\`\n\n\`\`\`json\n${show(args)}\n\`\`\`\n\n\`\`\`json\n${show(envelope)}\n\`\`\`\n`,
    );
    return envelope.result ?? {};
  };
  const at = { project_path: w.dirs.project };
  await call('Is the server healthy, which gate runs?', 'hai_health', {});
  await call('Bind the directory as logical project `demo` on this laptop', 'hai_bind_project', {
    project_id: 'demo',
    device_id: 'laptop',
    local_path: w.dirs.project,
    owner_ack: true,
    reason: 'my laptop checkout',
  });
  const intake = await call('Capture a raw thought', 'hai_intake', {
    ...at,
    raw: 'weekly report: csv export? pdf? dark mode for the dashboard?',
  });
  await call('Distill it to one decision and one next step', 'hai_distill', {
    ...at,
    intake_id: intake.intake_id,
    decision: 'CSV export first',
    next_step: 'write src/export/csv.ts',
    parklist: ['pdf export', 'dark mode'],
  });
  await call('Focus', 'hai_set_focus', {
    ...at,
    focus_id: 'export',
    label: 'weekly report export',
  });
  await call('Park a stray thought', 'hai_park', {
    ...at,
    text: 'ask finance which delimiter they want',
    tags: ['question'],
  });
  await call(
    'A vague contract is refused',
    'hai_open_mission',
    contractArgs(w.dirs.project, { objective: 'improve stuff', artifact: '' }),
  );
  const { objective: _o, ...start } = contractArgs(w.dirs.project);
  const mission = await call('Start the mission', 'hai_mission_start', {
    ...start,
    problem: 'Ship the CSV export of the weekly report',
    time_limit_hours: 4,
  });
  const lease = await call('Take a session lease', 'hai_authorize_session', {
    ...at,
    mission_id: mission.mission_id,
    contract_version: 1,
    agent_identity: 'claude-code',
    role: 'implementer',
    contribution: 'the CSV writer',
    expected_result: 'src/export/csv.ts with tests',
    duration_minutes: 90,
    criterion_ids: ['C1', 'C2'],
    request_id: 'lease-1',
  });
  const session = { ...at, session_id: lease.session_id };
  await call('Read the exact contract', 'hai_get_contract', session);
  await call('Check a step: in scope', 'hai_check_activity', {
    ...session,
    activity_step: 'write the CSV writer',
    criterion_id: 'C1',
    affected_paths: ['src/export/csv.ts'],
    activity_kind: 'edit',
  });
  await call('Drift check: a file outside allowed_paths', 'hai_drift_check', {
    ...session,
    activity_step: 'fix the billing total on the way',
    criterion_id: 'C1',
    affected_paths: ['src/billing/total.ts'],
  });
  await call('Park the idea that came up', 'hai_park_item', {
    ...at,
    idea: 'fix the billing total rounding',
    origin_session_id: lease.session_id,
    trigger_event: 'drift check on src/billing/total.ts',
    mission_id: mission.mission_id,
    rationale: 'not in this contract',
  });
  await call('Checkpoint', 'hai_checkpoint', { ...at, note: 'writer done, tests next' });
  await call('Recover (advice only)', 'hai_recover', at);
  await call('Status', 'hai_status', at);
  await call('Propose the next step', 'hai_propose_next_step', {
    ...at,
    content: 'Write the empty-week tests for csv.ts',
  });
  await call('Accept it: the gate asks the owner', 'hai_accept_next_step', at);
  await call(
    'Accept it with the code the owner read (`intentlog owner code`)',
    'hai_accept_next_step',
    { ...at, owner_code: await w.ownerCode() },
  );
  await call('The canonical next step', 'hai_get_next_step', at);
  const change = {
    ...at,
    mission_id: mission.mission_id,
    contract_version: 1,
    reason: 'a second agent writes the tests',
    changes: { constraints: { max_parallel_sessions: 3 } },
  };
  await call('Recontract: the gate asks the owner', 'hai_recontract', change);
  await call('Recontract with the owner’s code: v2, leases revoked', 'hai_recontract', {
    ...change,
    owner_code: await w.ownerCode(),
  });
  await call('The artifacts on disk', 'hai_read_artifacts', { ...at, max_chars: 160 });
  await mkdir(join(w.dirs.project, 'src/export'), { recursive: true });
  await mkdir(join(w.dirs.project, 'test'), { recursive: true });
  await writeFile(join(w.dirs.project, 'src/export/csv.ts'), 'export const csv = () => "";\n');
  const close = {
    ...at,
    mission_id: mission.mission_id,
    contract_version: 2,
    outcome_summary: 'CSV export ships with tests',
  };
  await call('Close without evidence for every criterion', 'hai_close_mission', {
    ...close,
    closure: 'completed',
    evidence: { C1: { paths: ['src/export/csv.ts'] } },
  });
  await writeFile(join(w.dirs.project, 'test/csv.test.ts'), 'test("empty week", () => {});\n');
  await call('Proof: evidence for every criterion', 'hai_proof', {
    ...close,
    evidence: {
      C1: { paths: ['src/export/csv.ts'] },
      C2: { paths: ['test/csv.test.ts'], note: 'empty weeks' },
    },
  });
  await call('Stop the day', 'hai_stop', {
    ...at,
    day: '2026-12-01',
    loop_closed: true,
    clearer: 'what the CSV must contain',
    agency_gained: 'I can read the export code myself',
    manual_practice: ['read the csv.ts diff'],
  });
  const second = await call(
    'Open another mission',
    'hai_open_mission',
    contractArgs(w.dirs.project, { objective: 'Add the PDF export of the weekly report' }),
  );
  const abandon = {
    ...at,
    mission_id: second.mission_id,
    contract_version: 1,
    closure: 'abandoned',
    outcome_summary: 'finance does not need PDF',
  };
  await call('Abandon it: owner-gated', 'hai_close_mission', abandon);
  await call('Abandon with the owner’s code', 'hai_close_mission', {
    ...abandon,
    owner_code: await w.ownerCode(),
  });
  const block = await call('Start a learning block', 'hai_learning_start', {
    ...at,
    topic: 'CSV quoting rules',
    intended_output_path: 'notes/csv-quoting.md',
  });
  const reflection = {
    ...at,
    block_id: block.block_id,
    own_activity: 'I read RFC 4180 and quoted three tricky rows by hand',
    learned: 'a quote inside a quoted field is written twice',
    open_question: 'does Excel need a BOM for UTF-8?',
    evidence_paths: ['notes/csv-quoting.md'],
    owner_ack: true,
  };
  await call('Complete it too early', 'hai_learning_complete', reflection);
  w.clock.advance(25 * 60);
  await mkdir(join(w.dirs.project, 'notes'), { recursive: true });
  await writeFile(join(w.dirs.project, 'notes/csv-quoting.md'), '"a ""quoted"" word",2\n');
  await call('Complete it after 25 minutes, with the notes', 'hai_learning_complete', reflection);
};

await withMissions(run);
process.stdout.write(steps.join('\n'));
