import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  callAs,
  governanceArgs,
  localArgs,
  storymapArgs,
  systemArgs,
  type Args,
} from './authorization-calls.js';
import { withWorld, type Endpoint, type World } from './authorization-world.js';

/**
 * A read appends nothing (issue 28, "Reads write nothing"): every tool a surface lists as
 * read-only (`readOnlyHint`, as a real MCP client sees it over HTTP) is called with valid
 * arguments on an existing project, task or mission, by SYSTEM (who may read everything), and
 * must succeed with the log's head where it was. A read-only tool this walk has no arguments for
 * fails it: a new read is walked from its first day.
 */

type Walked = { endpoint: Endpoint; args: Record<string, Args> };

/** The intent task and the missions desk the reads name, made before the walk. */
type Places = { root: string; task_id: string; desk: string; session_id: string };

const intentArgs = (p: Places): Record<string, Args> => {
  const task = async () => ({ project_root: p.root, task_id: p.task_id });
  return {
    intent_get_snapshot: task,
    intent_list_candidates: task,
    intent_export: task,
    intent_status: async () => ({ project_root: p.root }),
  };
};

const missionsArgs = (p: Places): Record<string, Args> => {
  const desk = async () => ({ project_path: p.desk });
  return {
    hai_health: desk,
    hai_status: desk,
    hai_get_next_step: desk,
    hai_read_artifacts: desk,
    hai_recover: desk,
    hai_get_contract: async () => ({ project_path: p.desk, session_id: p.session_id }),
  };
};

const must = async (w: World, endpoint: Endpoint, name: string, args: object) => {
  const answer = await callAs(w, 'system', endpoint, name, { ...args });
  assert.ok(answer.ok, `preparing ${name}: ${JSON.stringify(answer)}`);
  return answer as unknown as Record<string, unknown> & { result?: Record<string, unknown> };
};

/** A task with a claim in a fresh root; a bound desk with an open mission and a lease. */
const prepare = async (w: World, root: string, desk: string): Promise<Places> => {
  const started = await must(w, 'intent', 'intent_start_task', {
    project_root: root,
    claims: [
      {
        epistemic_status: 'explicit',
        basis: 'direct_statement',
        statement: 'The user wants CSV export',
        source_ref: { kind: 'user_event', event_id: 'u-1' },
      },
    ],
  });
  const mission = await must(w, 'missions', 'hai_open_mission', {
    objective: 'Ship the CSV export of the report',
    artifact: 'src/export/csv.ts',
    done_criteria: [{ id: 'C1', description: 'export writes a valid CSV file' }],
    owner: 'system',
    constraints: { project_path: desk, allowed_paths: ['src'], max_parallel_sessions: 2 },
  });
  const lease = await must(w, 'missions', 'hai_authorize_session', {
    project_path: desk,
    mission_id: mission.result!.mission_id,
    contract_version: 1,
    agent_identity: 'agent',
    role: 'implementer',
    contribution: 'the exporter',
    expected_result: 'csv.ts',
    duration_minutes: 60,
    criterion_ids: ['C1'],
    request_id: 'walk-lease',
  });
  await must(w, 'missions', 'hai_intake', { project_path: desk, raw: 'what about pdf' });
  return {
    root,
    task_id: started.task_id as string,
    desk,
    session_id: lease.result!.session_id as string,
  };
};

const withDirs = async (body: (root: string, desk: string) => Promise<void>) => {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'intentlog-reads-')));
  try {
    const [root, desk] = [join(base, 'root'), join(base, 'desk')];
    for (const d of [root, desk]) await mkdir(d);
    await body(root, desk);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
};

describe('reads write nothing, on every surface (issue 28)', () => {
  it('every read-only tool a client lists answers SYSTEM and leaves the log head where it was', () =>
    withDirs((root, desk) =>
      withWorld(async (w) => {
        const places = await prepare(w, root, desk);
        const walks: Record<string, Walked> = {
          // /mcp serves governance and system together
          'governance,system': { endpoint: 'mcp', args: { ...governanceArgs, ...systemArgs } },
          storymap: { endpoint: 'storymap', args: storymapArgs },
          'storymap-local': { endpoint: 'storymap-local', args: localArgs },
          intent: { endpoint: 'intent', args: intentArgs(places) },
          missions: { endpoint: 'missions', args: missionsArgs(places) },
        };
        const walked = new Set<string>();
        for (const [surface, { endpoint, args }] of Object.entries(walks)) {
          const listed = (await w.client('system', endpoint).listTools()).tools;
          const reads = listed.filter((t) => t.annotations?.readOnlyHint === true);
          assert.ok(reads.length > 0, `${surface}: no read-only tool listed`);
          for (const tool of reads) {
            const make = args[tool.name];
            assert.ok(make, `${surface}: the walk has no arguments for the read ${tool.name}`);
            const call = await make(w, 'system');
            const before = await w.app.log.head();
            const answer = await callAs(w, 'system', endpoint, tool.name, call);
            assert.ok(answer.ok, `${surface} ${tool.name}: ${JSON.stringify(answer)}`);
            assert.equal(await w.app.log.head(), before, `${surface} ${tool.name} appended`);
            walked.add(`${surface} ${tool.name}`);
            // intent and missions walk their refusals elsewhere for writes; a stranger's read of
            // this task or desk is refused here, and appends nothing either
            if (endpoint !== 'intent' && endpoint !== 'missions') continue;
            // (intent_status answers everyone, with their own counts: docs/authorization.md)
            const stranger = await callAs(w, 'sam', endpoint, tool.name, call);
            if (tool.name !== 'intent_status')
              assert.equal(stranger.ok, false, `${surface} ${tool.name} answered a stranger`);
            assert.equal(
              await w.app.log.head(),
              before,
              `${surface} ${tool.name}: a stranger appended`,
            );
          }
        }
        // reads naming a directory no project holds yet make no project of it
        const fresh = join(desk, 'fresh');
        await mkdir(fresh);
        const before = await w.app.log.head();
        for (const tool of ['hai_status', 'hai_recover', 'hai_get_next_step'])
          await callAs(w, 'system', 'missions', tool, { project_path: fresh });
        await callAs(w, 'system', 'intent', 'intent_status', { project_root: fresh });
        assert.equal(await w.app.log.head(), before, 'a read of a new directory appended');
        assert.ok(
          walked.has('governance,system sync_since') && walked.has('governance,system whoami'),
        );
      }),
    ));
});
