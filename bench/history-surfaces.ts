/**
 * One aggregate grown per surface, through the surface's own MCP tools (bench/history.ts): a
 * small and a large one side by side in one data dir, and the commands and queries measured on
 * both. Sizes are the (39): 100 / 10,000 intent claims on a task, 10 / 4,000 commits
 * linked to a work package, 30 / 3,000 events on a story in its building loop, 200 / 2,000
 * stories on a map half built, 20 / 1,500 leases on a missions desk.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from './history-server.js';

export type Size = 'small' | 'large';
export type Op = { name: string; run(server: Server, at: Size, i: number): Promise<unknown> };
export type Scenario = {
  name: string;
  surface: string;
  sizes: Record<Size, number>;
  unit: string;
  /** what the client offers as roots, for surfaces that find their project there */
  roots?: (dir: string) => string[];
  env?: (dir: string) => Record<string, string>;
  /** the actor the measured server acts as (`mcp --actor`), after `setup` ran as the local user */
  actor?: string;
  setup?(server: Server): Promise<void>;
  /** grows both aggregates; answers the ops measured on them */
  seed(
    server: Server,
    dir: string,
    scale: number,
    progress: (n: number) => void,
    /** how many times each op will run on each size (an op may use up what the seed made) */
    budget: number,
  ): Promise<Op[]>;
};

/** Runs `count` calls, `inFlight` at a time (one stdio client carries concurrent requests). */
const many = async (count: number, inFlight: number, call: (i: number) => Promise<unknown>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(inFlight, count) }, async () => {
      while (next < count) await call(next++);
    }),
  );
};

const hex = (n: number, salt: number) =>
  (salt.toString(16).padStart(8, '0') + n.toString(16).padStart(32, '0')).slice(0, 40);

const intent: Scenario = {
  name: 'intent task',
  surface: 'intent',
  sizes: { small: 100, large: 10_000 },
  unit: 'claims',
  roots: (dir) => [join(dir, 'intent-root')],
  async seed(server, dir, scale, progress) {
    mkdirSync(join(dir, 'intent-root'), { recursive: true });
    const tasks = {} as Record<Size, string>;
    for (const size of ['small', 'large'] as const) {
      const start = await server.call('intent_start_task', {
        request_id: `start-${size}`,
        host_session_id: `history-${size}`,
        claims: [],
      });
      tasks[size] = String(start.result!.task_id);
      const n = Math.round(this.sizes[size] * scale);
      await many(n, 8, async (i) => {
        await server.call('intent_add_inference', inference(tasks[size], `${size}-${i}`));
        if (i % 500 === 0) progress(i);
      });
    }
    let added = 0;
    return [
      {
        name: 'add a claim, then intent_get_snapshot',
        run: async (s, at) => {
          await s.call('intent_add_inference', inference(tasks[at], `m-${added++}`));
          await s.call('intent_get_snapshot', { task_id: tasks[at] });
        },
      },
      { name: 'intent_status', run: (s, at) => s.call('intent_status', { task_id: tasks[at] }) },
    ];
  },
};

const inference = (task_id: string, tag: string) => ({
  task_id,
  statement: `the user would like behaviour ${tag} kept as it is`,
  confidence: 0.5,
  source_ref: { kind: 'agent_turn', event_id: `turn-${tag}` },
});

const governance: Scenario = {
  name: 'governance work package',
  surface: 'governance',
  sizes: { small: 10, large: 4_000 },
  unit: 'links',
  actor: 'pat',
  async setup(server) {
    const project_id = 'history';
    await server.call('create_project', { project_id, name: 'History', idempotency_key: 'p' });
    await server.call('register_actor', {
      project_id,
      actor_id: 'pat',
      role: 'PM',
      idempotency_key: 'reg-pat',
    });
  },
  async seed(server, _dir, scale, progress) {
    const project_id = 'history';
    const wp = { small: 'WP-S', large: 'WP-L' } as const;
    let salt = 0;
    const link = (s: Server, at: Size) =>
      s.call('link_commit', {
        project_id,
        work_package_id: wp[at],
        commit_id: hex(salt, ++salt),
        idempotency_key: `link-${salt}`,
      });
    for (const size of ['small', 'large'] as const) {
      await server.call('issue_work_package', {
        project_id,
        work_package_id: wp[size],
        title: `The ${size} package`,
        acceptance_criteria: ['it links commits'],
        idempotency_key: `issue-${size}`,
      });
      await many(Math.round(this.sizes[size] * scale), 8, async (i) => {
        await link(server, size);
        if (i % 500 === 0) progress(i);
      });
    }
    return [
      { name: 'link_commit', run: (s, at) => link(s, at) },
      {
        name: 'get_work_package',
        run: (s, at) => s.call('get_work_package', { project_id, work_package_id: wp[at] }),
      },
    ];
  },
};

type Criterion = { id: string };

/** A map with a complete vision and `n` stories, each after the one before it in the order. */
const newMap = async (server: Server, name: string, n: number) => {
  const made = await server.call('create_project', { name, idea: `the ${name} map` });
  const project_id = String(made.result!.project_id);
  const answers = { users: 'u', problem: 'p', switch: 's', first: 'f', proof: 'p' };
  await server.call('set_vision', { project_id, answers });
  for (let start = 0; start < n; start += 200)
    await server.call('create_stories', {
      project_id,
      stories: Array.from({ length: Math.min(200, n - start) }, (_, k) => ({
        title: `Story ${start + k + 1}`,
        i_want: `to do thing ${start + k + 1}`,
        acceptance_criteria: [0, 1, 2, 3].map((c) => ({
          text: `Given ${c}, when ${start + k}, then done`,
          priority: c === 0 ? 'must' : 'should',
        })),
      })),
    });
  const order = await server.call('get_build_order', { project_id });
  return { project_id, order };
};

/** One building loop on a story: start, plan, tests, criteria, complete. */
const build = async (server: Server, project_id: string, story_id: string, n: number) => {
  const started = await server.call('start_story', { project_id, story_id });
  const criteria = started.result!.acceptance_criteria as Criterion[];
  const file = `src/story-${n}.ts`;
  await server.call('save_plan', {
    project_id,
    story_id,
    steps: [{ text: 'do it', files: [file] }],
  });
  await server.call('save_tests', {
    project_id,
    story_id,
    tests: criteria.map((c, k) => ({ title: `t${k}`, criterion_ids: [c.id], file })),
  });
  await server.call('report_criteria', {
    project_id,
    story_id,
    results: criteria.map((c) => ({ criterion_id: c.id, status: 'pass' })),
  });
  return server.call('complete_story', {
    project_id,
    story_id,
    summary: 'Built it.',
    implemented_files: [file],
  });
};

const storyIds = (answer: Record<string, unknown>): string[] => {
  type Row = { id?: string; story_id?: string };
  const result = answer.result as { order: Row[]; unsequenced: Row[] };
  const ids = [...result.order, ...result.unsequenced].map((r) => r.story_id ?? r.id);
  if (ids.some((id) => typeof id !== 'string'))
    throw new Error(`get_build_order rows without an id: ${JSON.stringify(result).slice(0, 400)}`);
  return ids as string[];
};

const storymap: Scenario = {
  name: 'story map being built',
  surface: 'storymap',
  sizes: { small: 200, large: 2_000 },
  unit: 'stories (half built)',
  async seed(server, _dir, scale, progress, budget) {
    const maps = {} as Record<Size, { project_id: string; todo: string[] }>;
    let built = 0;
    for (const size of ['small', 'large'] as const) {
      const n = Math.max(Math.round(this.sizes[size] * scale), 2 * budget);
      const { project_id, order } = await newMap(server, `${size} map`, n);
      const ids = storyIds(order);
      const half = Math.min(Math.floor(ids.length / 2), ids.length - budget);
      for (let i = 0; i < half; i++) {
        await build(server, project_id, ids[i]!, built++);
        if (i % 100 === 0) progress(i);
      }
      maps[size] = { project_id, todo: ids.slice(half) };
    }
    return [
      {
        name: 'building loop, then complete_story',
        run: async (s, at) => {
          const story = maps[at].todo.shift();
          if (!story) throw new Error(`the ${at} map has no story left to build`);
          await build(s, maps[at].project_id, story, built++);
        },
      },
      {
        name: 'get_build_order',
        run: (s, at) => s.call('get_build_order', { project_id: maps[at].project_id }),
      },
    ];
  },
};

/** One story taken through many test runs: its history grows by two events a round. */
const storyLoop: Scenario = {
  name: 'story in its building loop',
  surface: 'storymap',
  sizes: { small: 30, large: 3_000 },
  unit: 'events on the story',
  async seed(server, _dir, scale, progress) {
    const stories = {} as Record<
      Size,
      { project_id: string; story_id: string; criteria: string[] }
    >;
    for (const size of ['small', 'large'] as const) {
      const { project_id, order } = await newMap(server, `${size} story`, 1);
      const story_id = storyIds(order)[0]!;
      const started = await server.call('start_story', { project_id, story_id });
      const criteria = (started.result!.acceptance_criteria as Criterion[]).map((c) => c.id);
      stories[size] = { project_id, story_id, criteria };
      const rounds = Math.round((this.sizes[size] * scale) / 2);
      for (let i = 0; i < rounds; i++) {
        await round(server, stories[size], i);
        if (i % 250 === 0) progress(i);
      }
    }
    return [
      {
        name: 'one round: save_tests, report_criteria',
        run: (s, at, i) => round(s, stories[at], i),
      },
    ];
  },
};

const round = async (
  server: Server,
  story: { project_id: string; story_id: string; criteria: string[] },
  i: number,
) => {
  const { project_id, story_id, criteria } = story;
  const file = `test/round-${i % 13}.test.ts`;
  await server.call('save_tests', {
    project_id,
    story_id,
    tests: criteria.map((c, k) => ({ title: `t${k} r${i}`, criterion_ids: [c], file })),
  });
  await server.call('report_criteria', {
    project_id,
    story_id,
    results: criteria.map((c, k) => ({
      criterion_id: c,
      status: k === i % criteria.length ? 'fail' : 'pass',
    })),
  });
};

const missions: Scenario = {
  name: 'missions desk',
  surface: 'missions',
  sizes: { small: 20, large: 1_500 },
  unit: 'leases',
  env: (dir) => ({ INTENTLOG_OWNER_DIR: join(dir, 'owner') }),
  async seed(server, dir, scale, progress) {
    const desks = {} as Record<Size, { project_path: string; mission_id: string; live: number }>;
    let stops = 0;
    const lease = async (s: Server, at: Size, i: number) => {
      const desk = desks[at];
      if (desk.live >= 15) {
        await s.call('hai_stop', {
          project_path: desk.project_path,
          day: `day-${++stops}`,
          loop_closed: true,
          clearer: 'the desk',
          agency_gained: 'leases',
        });
        desk.live = 0;
      }
      desk.live++;
      return s.call('hai_authorize_session', {
        project_path: desk.project_path,
        mission_id: desk.mission_id,
        contract_version: 1,
        agent_identity: `agent-${i}`,
        role: 'implementer',
        contribution: 'a part',
        expected_result: 'a file',
        duration_minutes: 480,
        criterion_ids: ['C1'],
      });
    };
    for (const size of ['small', 'large'] as const) {
      const project_path = join(dir, `desk-${size}`);
      mkdirSync(join(project_path, 'src'), { recursive: true });
      writeFileSync(join(project_path, 'src', 'a.ts'), 'export {};\n');
      const opened = await server.call('hai_open_mission', {
        objective: `Grow the ${size} desk to measure its leases`,
        artifact: 'src/a.ts',
        done_criteria: [{ id: 'C1', description: 'src/a.ts exists' }],
        owner: 'bench',
        constraints: { project_path, allowed_paths: ['src'], max_parallel_sessions: 16 },
      });
      desks[size] = { project_path, mission_id: String(opened.result!.mission_id), live: 0 };
      const n = Math.round(this.sizes[size] * scale);
      for (let i = 0; i < n; i++) {
        await lease(server, size, i);
        if (i % 250 === 0) progress(i);
      }
    }
    return [
      { name: 'a lease (hai_authorize_session)', run: (s, at, i) => lease(s, at, i) },
      {
        name: 'hai_status',
        run: (s, at) => s.call('hai_status', { project_path: desks[at].project_path }),
      },
    ];
  },
};

export const SCENARIOS: Scenario[] = [intent, governance, storyLoop, storymap, missions];
