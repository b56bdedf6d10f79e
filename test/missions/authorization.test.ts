import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { App } from '../../src/app/app.js';
import { SYSTEM, type Principal } from '../../src/commands/principal.js';
import { openIntentlog } from '../../src/modules/index.js';
import { cliIn } from '../cli/cli-harness.js';
import {
  call,
  connectAs,
  startServer,
  withDataDir,
  type Envelope,
  type Server,
} from '../governance/serve-harness.js';
import { codeOf as missionsCode, type Envelope as Flat } from './harness.js';

/**
 * Who may do what on the missions surface, from outside: a real `intentlog serve --surface
 * missions --project-root <allowed>` over HTTP, bearer tokens for three actors and SYSTEM.
 * alice binds and works project `alpha`; bob holds no role in it; carol is made a member with
 * `intentlog owner grant`. Every tool is walked for each, and every refusal leaves the log's
 * head where it was.
 */

const actor = (actor_id: string): Principal => ({ kind: 'actor', actor_id });
const PRINCIPALS = {
  alice: actor('alice'),
  bob: actor('bob'),
  carol: actor('carol'),
  system: SYSTEM,
};
const DEVICE = 'dev';
/** the missions surface answers flat (its `error` is the code) */
const codeOf = (e: Envelope) => missionsCode(e as unknown as Flat);
const ref = { project_id: 'alpha', device_id: DEVICE };

type World = {
  dir: string;
  allowed: string;
  outside: string;
  server: Server;
  follower: App;
  as: Record<keyof typeof PRINCIPALS, Client>;
  mission_id: string;
  session_id: string;
  intake_id: string;
  block_id: string;
};

/** A contract on `constraints`. */
const contract = (constraints: Record<string, unknown>) => ({
  artifact: 'src/export/csv.ts',
  done_criteria: [
    { id: 'C1', description: 'export writes a valid CSV file' },
    { id: 'C2', description: 'tests cover empty weeks' },
  ],
  owner: 'alice',
  constraints: { allowed_paths: ['src'], max_parallel_sessions: 4, ...constraints },
});

/** Every missions tool, with arguments that name alice's project `alpha`. */
const walk = (w: World): [string, Record<string, unknown>][] => {
  const mission = { ...ref, mission_id: w.mission_id, contract_version: 1 };
  const activity = { ...ref, session_id: w.session_id, activity_step: 'edit the exporter' };
  return [
    ['hai_health', ref],
    ['hai_status', ref],
    ['hai_get_next_step', ref],
    ['hai_read_artifacts', ref],
    ['hai_recover', ref],
    ['hai_get_contract', { ...ref, session_id: w.session_id }],
    ['hai_park', { ...ref, text: 'a stray thought' }],
    ['hai_set_focus', { ...ref, focus_id: 'export' }],
    ['hai_propose_next_step', { ...ref, content: 'write the header row' }],
    ['hai_checkpoint', { ...ref, note: 'before lunch' }],
    ['hai_intake', { ...ref, raw: 'what about pdf' }],
    [
      'hai_distill',
      { ...ref, intake_id: w.intake_id, decision: 'csv first', next_step: 'header row' },
    ],
    [
      'hai_open_mission',
      { objective: 'Ship the CSV export of the report', ...contract({ project_id: 'alpha' }) },
    ],
    [
      'hai_mission_start',
      { problem: 'Ship the CSV export of the report', ...contract({ project_id: 'alpha' }) },
    ],
    [
      'hai_authorize_session',
      {
        ...mission,
        agent_identity: 'agent',
        role: 'implementer',
        contribution: 'the exporter',
        expected_result: 'csv.ts',
        duration_minutes: 30,
        criterion_ids: ['C1'],
        request_id: `walk-${Math.random()}`,
      },
    ],
    ['hai_check_activity', activity],
    ['hai_drift_check', activity],
    [
      'hai_park_item',
      {
        ...ref,
        idea: 'pdf export',
        origin_session_id: w.session_id,
        trigger_event: 'a user asked',
        mission_id: w.mission_id,
        rationale: 'a non-goal',
      },
    ],
    ['hai_accept_next_step', ref],
    [
      'hai_recontract',
      { ...mission, reason: 'scope grew', changes: { objective: 'Ship CSV and TSV exports' } },
    ],
    ['hai_close_mission', { ...mission, closure: 'completed', outcome_summary: 'not yet' }],
    ['hai_proof', { ...mission, outcome_summary: 'not yet' }],
    [
      'hai_bind_project',
      { ...ref, local_path: join(w.allowed, 'b'), owner_ack: true, reason: 'mine now' },
    ],
    ['hai_learning_start', { ...ref, topic: 'csv quoting', intended_output_path: 'csv.md' }],
    [
      'hai_learning_complete',
      {
        ...ref,
        block_id: w.block_id,
        own_activity: 'read RFC 4180',
        learned: 'quotes double',
        open_question: 'BOM?',
        evidence_paths: ['csv.md'],
        owner_ack: true,
      },
    ],
    ['hai_learning_abandon', { ...ref, block_id: w.block_id, reason: 'later', owner_ack: true }],
    [
      'hai_stop',
      { ...ref, day: '2026-12-01', loop_closed: false, clearer: 'x', agency_gained: 'y' },
    ],
  ];
};

/** What carol, a member, is told: owner-gated changes need the owner role, the rest is hers. */
const MEMBER: Record<string, string> = {
  hai_accept_next_step: 'owner_role_required',
  hai_recontract: 'owner_role_required',
  hai_bind_project: 'owner_role_required',
  hai_open_mission: 'active_mission_exists',
  hai_mission_start: 'active_mission_exists',
  hai_learning_start: 'learning_block_active',
  hai_learning_complete: 'owner_role_required',
  hai_learning_abandon: 'owner_role_required',
};

/** Codes that mean "not yours": SYSTEM never sees them. */
const UNAUTHORIZED = new Set(['missing_project', 'owner_role_required', 'path_outside_root']);

describe('missions: who may do what, over HTTP with tokens', () => {
  let w: World;
  let stop = async () => {};

  before(async () => {
    await new Promise<void>((ready, fail) => {
      let release = () => {};
      const finished = withDataDir(PRINCIPALS, async (dir, tokens) => {
        const base = await realpath(await mkdtemp(join(tmpdir(), 'missions-authz-')));
        const allowed = join(base, 'allowed');
        const outside = join(base, 'outside');
        for (const d of [join(allowed, 'a'), join(allowed, 'b'), outside])
          await mkdir(d, { recursive: true });
        // a project another surface made (governance creates by SYSTEM), before the server
        const app = await openIntentlog({ dataDir: dir, store: 'level' });
        await app.projects.create(
          { project_id: 'gov', name: 'governance project' },
          {
            principal: SYSTEM,
          },
        );
        await app.close();
        const server = await startServer(dir, {
          args: ['--surface', 'missions', '--project-root', allowed],
          env: { INTENTLOG_OWNER_DIR: join(base, 'owner'), INTENTLOG_DEVICE_ID: DEVICE },
        });
        const follower = await openIntentlog({ dataDir: dir, store: 'level' });
        const as = Object.fromEntries(
          await Promise.all(
            Object.keys(PRINCIPALS).map(async (n) => [n, await connectAs(server.url, tokens[n]!)]),
          ),
        ) as World['as'];
        try {
          w = {
            dir,
            allowed,
            outside,
            server,
            follower,
            as,
            mission_id: '',
            session_id: '',
            intake_id: '',
            block_id: '',
          };
          ready();
          await new Promise<void>((done) => (release = done));
        } finally {
          for (const c of Object.values(as)) await c.close();
          await follower.close();
          await server.stop();
          await rm(base, { recursive: true, force: true });
        }
      }).catch(fail);
      stop = async () => {
        release();
        await finished;
      };
    });
    // alice binds `alpha` and works on it
    const alice = (name: string, args: Record<string, unknown>) => call(w.as.alice, name, args);
    const bind = { ...ref, local_path: join(w.allowed, 'a'), owner_ack: true, reason: 'mine' };
    assert.equal(codeOf(await alice('hai_bind_project', bind)), 'ok');
    const opened = await alice('hai_open_mission', {
      objective: 'Ship the CSV export of the report',
      ...contract({ project_id: 'alpha' }),
    });
    w.mission_id = opened.result!.mission_id as string;
    const lease = await alice('hai_authorize_session', {
      ...ref,
      mission_id: w.mission_id,
      contract_version: 1,
      agent_identity: 'alice-agent',
      role: 'implementer',
      contribution: 'the exporter',
      expected_result: 'csv.ts',
      duration_minutes: 240,
      criterion_ids: ['C1'],
      request_id: 'alice-lease',
    });
    w.session_id = lease.result!.session_id as string;
    w.intake_id = (await alice('hai_intake', { ...ref, raw: 'pdf too?' })).result!
      .intake_id as string;
    const block = await alice('hai_learning_start', {
      ...ref,
      topic: 'csv quoting',
      intended_output_path: 'csv.md',
    });
    w.block_id = block.result!.block_id as string;
  });
  after(() => stop());

  const head = () => w.follower.log.head();

  it('an actor with no role is refused every tool on another’s project, and nothing is appended', async () => {
    const before = await head();
    for (const [tool, args] of walk(w)) {
      const answer = await call(w.as.bob, tool, args);
      const expected = tool === 'hai_bind_project' ? 'owner_role_required' : 'missing_project';
      assert.equal(codeOf(answer), expected, `${tool}: ${JSON.stringify(answer.error)}`);
      // the refusal tells nothing of the project: no root, no mission, no lease
      assert.doesNotMatch(JSON.stringify(answer), new RegExp(`${w.mission_id}|${w.allowed}/a`));
    }
    // by its directory too
    const byPath = await call(w.as.bob, 'hai_status', { project_path: join(w.allowed, 'a') });
    assert.equal(codeOf(byPath), 'missing_project');
    // hai_health without a project is for everyone
    assert.equal(codeOf(await call(w.as.bob, 'hai_health', {})), 'ok');
    assert.equal(await head(), before);
  });

  it('a member works on the project; only an owner passes the gate', async () => {
    const granted = await cliIn(w.dir, ['owner', 'grant', 'alpha', 'carol']);
    assert.equal(granted.code, 0, granted.stderr);
    for (const [tool, args] of walk(w)) {
      if (tool === 'hai_stop') continue;
      const before = await head();
      const answer = await call(w.as.carol, tool, args);
      assert.equal(
        codeOf(answer),
        MEMBER[tool] ?? 'ok',
        `${tool}: ${JSON.stringify(answer.error)}`,
      );
      if (!answer.ok) assert.equal(await head(), before, `${tool} appended on a refusal`);
    }
  });

  it('SYSTEM acts on every project; the owner gets to the gate', async () => {
    for (const [tool, args] of walk(w)) {
      const answer = await call(w.as.system, tool, args);
      assert.ok(!UNAUTHORIZED.has(codeOf(answer)), `${tool}: ${JSON.stringify(answer.error)}`);
    }
    const asked = await call(w.as.alice, 'hai_accept_next_step', ref);
    assert.equal(codeOf(asked), 'owner_gate_required');
  });

  it('a project another surface created cannot be squatted by binding its id', async () => {
    const before = await head();
    const squat = await call(w.as.bob, 'hai_bind_project', {
      project_id: 'gov',
      device_id: DEVICE,
      local_path: join(w.allowed, 'b'),
      owner_ack: true,
      reason: 'squat',
    });
    assert.equal(codeOf(squat), 'owner_role_required');
    assert.equal(await head(), before);
    // an id nobody holds becomes the binder's
    await mkdir(join(w.allowed, 'e'));
    const own = await call(w.as.bob, 'hai_bind_project', {
      project_id: 'bobs',
      device_id: DEVICE,
      local_path: join(w.allowed, 'e'),
      owner_ack: true,
      reason: 'mine',
    });
    assert.equal(codeOf(own), 'ok');
    assert.equal(codeOf(await call(w.as.bob, 'hai_status', { project_id: 'bobs' })), 'ok');
    assert.equal(
      codeOf(await call(w.as.alice, 'hai_status', { project_id: 'bobs' })),
      'missing_project',
    );
  });

  it('an actor names only directories the server allows; the first change makes it the owner', async () => {
    const before = await head();
    for (const path of [w.outside, '/etc', join(w.allowed, '..')]) {
      const answer = await call(w.as.bob, 'hai_park', { project_path: path, text: 'x' });
      assert.equal(codeOf(answer), 'path_outside_root', path);
      const bind = await call(w.as.bob, 'hai_bind_project', {
        project_id: 'elsewhere',
        device_id: DEVICE,
        local_path: path,
        owner_ack: true,
        reason: 'x',
      });
      assert.equal(codeOf(bind), 'path_outside_root', path);
    }
    assert.equal(await head(), before);
    const fresh = join(w.allowed, 'c');
    await mkdir(fresh);
    const first = await call(w.as.bob, 'hai_park', { project_path: fresh, text: 'mine' });
    assert.equal(codeOf(first), 'ok');
    assert.match(first.project_id!, /^dir-/);
    const taken = await call(w.as.alice, 'hai_status', { project_path: fresh });
    assert.equal(codeOf(taken), 'missing_project');
    // the local user (SYSTEM) is the person running the server: any directory
    assert.equal(codeOf(await call(w.as.system, 'hai_status', { project_path: w.outside })), 'ok');
  });

  it('reads write nothing, even naming a directory for the first time', async () => {
    const fresh = join(w.allowed, 'd');
    await mkdir(fresh);
    const before = await head();
    const at = { project_path: fresh };
    for (const tool of ['hai_status', 'hai_recover', 'hai_health', 'hai_get_next_step'])
      assert.equal(codeOf(await call(w.as.alice, tool, at)), 'ok', tool);
    assert.equal(codeOf(await call(w.as.alice, 'hai_read_artifacts', at)), 'ok');
    const contract = await call(w.as.alice, 'hai_get_contract', { ...at, session_id: 'nope' });
    assert.notEqual(codeOf(contract), 'ok');
    assert.equal(await head(), before);
  });
});
