import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { codeOf, contractArgs, withMissions, type Envelope } from './harness.js';

/**
 * Issue 30 #2: a NUL byte in any path argument of any missions tool answers a contract code,
 * never `internal`, and appends nothing (an activity check appends its own one record).
 * One row per path-taking argument; the list of tools that take `project_path` is checked
 * against the served schemas, so a new tool cannot slip past the table.
 */

const NUL = 'src/a\0b.ts';

/** Arguments each tool parses, apart from its project (ids need not exist: the path is first). */
const toolArgs = (
  m: string,
  s: string,
  b = 'LB-20261201T100000-00000000',
): Record<string, Record<string, unknown>> => ({
  hai_health: {},
  hai_status: {},
  hai_get_next_step: {},
  hai_read_artifacts: {},
  hai_park: { text: 'x' },
  hai_set_focus: { focus_id: 'f' },
  hai_propose_next_step: { content: 'x' },
  hai_accept_next_step: {},
  hai_checkpoint: {},
  hai_recover: {},
  hai_authorize_session: {
    mission_id: m,
    contract_version: 1,
    agent_identity: 'a',
    role: 'r',
    contribution: 'c',
    expected_result: 'e',
    duration_minutes: 30,
    criterion_ids: ['C1'],
    request_id: 'nul-row',
  },
  hai_get_contract: { session_id: s },
  hai_check_activity: { session_id: s, activity_step: 'x' },
  hai_drift_check: { session_id: s, activity_step: 'x' },
  hai_park_item: {
    idea: 'i',
    origin_session_id: s,
    trigger_event: 't',
    mission_id: m,
    rationale: 'r',
  },
  hai_recontract: { mission_id: m, contract_version: 1, reason: 'r', changes: { owner: 'pat' } },
  hai_close_mission: {
    mission_id: m,
    contract_version: 1,
    outcome_summary: 'o',
    closure: 'completed',
  },
  hai_proof: { mission_id: m, contract_version: 1, outcome_summary: 'o' },
  hai_intake: { raw: 'x' },
  hai_distill: { intake_id: 'I-1', decision: 'd', next_step: 'n' },
  hai_stop: { day: '2026-12-01', loop_closed: true, clearer: 'c', agency_gained: 'a' },
  hai_learning_start: { topic: 't', intended_output_path: 'notes.md' },
  hai_learning_complete: {
    block_id: b,
    own_activity: 'o',
    learned: 'l',
    open_question: 'q',
    evidence_paths: ['notes.md'],
    owner_ack: true,
  },
  hai_learning_abandon: { block_id: b, reason: 'r', owner_ack: true },
});

type Row = {
  name: string;
  tool: string;
  args: Record<string, unknown>;
  expect: (e: Envelope) => void;
  /** events the call may append (an activity check records itself) */
  appends?: number;
};

const refusedWith = (code: string) => (e: Envelope) => assert.equal(codeOf(e), code);

describe('a NUL byte in every path argument (issue 30 #2)', () => {
  it('answers a contract code and appends nothing', () =>
    withMissions(async ({ app, call, client, clock, dirs }) => {
      const at = { project_path: dirs.project };
      const opened = await call('hai_open_mission', contractArgs(dirs.project));
      const m = opened.mission_id as string;
      const lease = await call('hai_authorize_session', {
        ...at,
        ...toolArgs(m, '').hai_authorize_session,
        criterion_ids: ['C1'],
      });
      const s = lease.session_id as string;
      const block = await call('hai_learning_start', {
        ...at,
        topic: 't',
        intended_output_path: 'n.md',
      });
      // at the block's minimum (the lease of 30 minutes still valid): evidence is looked at
      clock.advance(25 * 60);
      const args = toolArgs(m, s, block.block_id as string);

      const served = (await client.listTools()).tools
        .filter((t) => 'project_path' in ((t.inputSchema.properties ?? {}) as object))
        .map((t) => t.name)
        .sort();
      assert.deepEqual(served, Object.keys(args).sort(), 'every tool taking project_path');

      const withAllowed = (paths: string[]) => ({
        ...contractArgs(dirs.project),
        constraints: { project_path: dirs.project, allowed_paths: paths },
      });
      const { objective: _o, ...startArgs } = withAllowed([NUL]);
      const drift = (e: Envelope) => {
        assert.equal(e.ok, true, JSON.stringify(e));
        assert.deepEqual([e.classification, e.required_action], ['drift', 'stop']);
        assert.match(JSON.stringify(e.reasons), /path_invalid/);
      };
      const incomplete = (e: Envelope) => {
        assert.equal(e.ok, true, JSON.stringify(e));
        assert.equal(e.status, 'incomplete');
        const invalid = e.invalid_evidence as { error: string }[];
        assert.equal(invalid[0]!.error, 'invalid_args');
      };
      const close = { ...at, ...args.hai_close_mission! };
      const rows: Row[] = [
        ...Object.entries(args).map(([tool, a]) => ({
          name: `${tool} project_path`,
          tool,
          args: { ...a, project_path: `${dirs.project}\0x` },
          expect: refusedWith('invalid_args'),
        })),
        {
          name: 'hai_open_mission constraints.project_path',
          tool: 'hai_open_mission',
          args: contractArgs(`${dirs.project}\0x`),
          expect: refusedWith('invalid_args'),
        },
        {
          name: 'hai_mission_start constraints.project_path',
          tool: 'hai_mission_start',
          args: { ...startArgs, problem: 'Ship it', constraints: { project_path: `/a\0` } },
          expect: refusedWith('invalid_args'),
        },
        {
          name: 'hai_bind_project local_path',
          tool: 'hai_bind_project',
          args: {
            project_id: 'p',
            device_id: 'laptop',
            local_path: `${dirs.project}\0`,
            owner_ack: true,
            reason: 'r',
          },
          expect: refusedWith('invalid_args'),
        },
        {
          name: 'hai_open_mission constraints.allowed_paths',
          tool: 'hai_open_mission',
          args: withAllowed(['src', NUL]),
          expect: refusedWith('review_required'),
        },
        {
          name: 'hai_mission_start constraints.allowed_paths',
          tool: 'hai_mission_start',
          args: { ...startArgs, problem: 'Ship the CSV export of the weekly report' },
          expect: refusedWith('review_required'),
        },
        {
          name: 'hai_recontract changes.constraints.allowed_paths',
          tool: 'hai_recontract',
          args: {
            ...at,
            ...args.hai_recontract,
            changes: { constraints: { allowed_paths: [NUL] } },
          },
          expect: refusedWith('review_required'),
        },
        ...['hai_check_activity', 'hai_drift_check'].map((tool) => ({
          name: `${tool} affected_paths`,
          tool,
          args: { ...at, ...args[tool], criterion_id: 'C1', affected_paths: [NUL] },
          expect: drift,
          appends: 1,
        })),
        {
          name: 'hai_close_mission evidence.paths',
          tool: 'hai_close_mission',
          args: { ...close, evidence: { C1: { paths: [NUL] } } },
          expect: incomplete,
        },
        {
          name: 'hai_close_mission evidence.path',
          tool: 'hai_close_mission',
          args: { ...close, evidence: { C1: { path: NUL } } },
          expect: incomplete,
        },
        {
          name: 'hai_learning_start intended_output_path',
          tool: 'hai_learning_start',
          args: { ...at, ...args.hai_learning_start, intended_output_path: NUL },
          expect: refusedWith('invalid_args'),
        },
        {
          name: 'hai_learning_complete evidence_paths',
          tool: 'hai_learning_complete',
          args: { ...at, ...args.hai_learning_complete, evidence_paths: [NUL] },
          expect: refusedWith('invalid_args'),
        },
        {
          name: 'hai_proof evidence.paths',
          tool: 'hai_proof',
          args: { ...at, ...args.hai_proof, evidence: { C1: { paths: [NUL] } } },
          expect: incomplete,
        },
      ];
      for (const row of rows) {
        const head = await app.log.head();
        const answer = await call(row.tool, row.args);
        assert.notEqual(codeOf(answer), 'internal', `${row.name}: ${JSON.stringify(answer)}`);
        try {
          row.expect(answer);
        } catch (error) {
          throw new Error(`${row.name}: ${(error as Error).message}`, { cause: error });
        }
        assert.equal(await app.log.head(), head + (row.appends ?? 0), `${row.name} appended`);
      }
    }));
});
