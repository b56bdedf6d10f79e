/**
 * A log shaped like the product's own, written through the real services (the same functions
 * the MCP tools call), for the replay bench of issue 31: per worker, a governance project with
 * the work package lifecycle, a story map seeded and then built story by story (the building
 * loop), an intent task with claims, and a mission with leased sessions checking their activity.
 * Built once into `.tmp/product-log-<events>/` and reused while its `built.json` is there.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { App } from '../src/app/app.js';
import { governance } from '../src/app/governance/index.js';
import { intentOf } from '../src/app/intent/index.js';
import { callerOf } from '../src/app/missions/index.js';
import { configureMissions, missions } from '../src/app/missions/service.js';
import { storymap } from '../src/app/storymap/index.js';
import { storymapBuild } from '../src/app/storymap/build.js';
import { SYSTEM } from '../src/commands/principal.js';
import { openIntentlog } from '../src/modules/index.js';
import { seedMap } from './storymap-seed.js';

/** `refused`: the calls the services refused, by their message (a lease over the mission's limit…) */
export type Built = {
  events: number;
  ms: number;
  refused: Record<string, number>;
  workers: number;
  /** the time budget ran out before the log held the events asked for */
  stoppedEarly: boolean;
};

/** Concurrent workers: group commit shares their fsyncs, as many MCP sessions' would be. */
const WORKERS = 16;
const STORIES = 200;
const LOCAL = callerOf(SYSTEM);
const ROLES = { po: 'PO', pm: 'PM', im: 'IMPLEMENTER', rv: 'REVIEWER' } as const;
const as = (actor_id: string, key: string) => ({
  principal: { kind: 'actor' as const, actor_id },
  idempotencyKey: key,
});

/** One work package from issue to accepted gate, with a decision recorded on it. */
const governanceRound = async (app: App, project_id: string, n: number) => {
  const g = governance(app);
  const wp = `WP-${n}`;
  const at = { project_id, work_package_id: wp };
  await g.issueWorkPackage({ ...at, title: `package ${n}` }, as('pm', `${wp}-i`));
  await g.claimWorkPackage(at, as('im', `${wp}-c`));
  await g.submitResult({ ...at, summary: 'done' }, as('im', `${wp}-s`));
  const asked = await g.requestReview({ ...at, reviewer_id: 'rv' }, as('im', `${wp}-r`));
  await g.submitReview(
    { project_id, review_id: asked.result.review_id, verdict: 'APPROVE' },
    as('rv', `${wp}-v`),
  );
  await g.closeGate({ ...at, outcome: 'ACCEPT' }, as('pm', `${wp}-g`));
  await g.recordDecision(
    { project_id, kind: 'technical', title: `t${n}`, rationale: 'r', work_package_id: wp },
    as('pm', `${wp}-d`),
  );
};

/**
 * A setup call (a project, a map, a task, a mission) tried again when a read model it waits
 * for was still folding (`unavailable`): under load on a shared machine such a wait can pass
 * its 10 s, and one lost setup call would end the whole build.
 */
const patiently = async <T>(what: () => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt++)
    try {
      return await what();
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'unavailable' || attempt >= 5) throw error;
    }
};

const worker = async (
  app: App,
  root: string,
  w: number,
  target: number,
  deadline: number,
  refused: (error: unknown) => void,
) => {
  const g = governance(app);
  const gp = `gov-${w}`;
  const sys = (key: string) => ({ principal: SYSTEM, idempotencyKey: `${gp}-${key}` });
  await patiently(() => g.createProject({ project_id: gp, name: gp }, sys('create')));
  for (const [actor_id, role] of Object.entries(ROLES))
    await patiently(() => g.registerActor({ project_id: gp, actor_id, role }, sys(actor_id)));

  const sm = storymap(app);
  /** A new map of STORIES stories, each marked ready by the founder: the next to build. */
  let maps = 0;
  const newMap = async () => {
    const seeded = await seedMap(app, {
      stories: STORIES,
      criteria: 3,
      edges: STORIES,
      batch: 50,
      name: `Map ${w}.${maps++}`,
    });
    for (const r of seeded.rows)
      await sm.founderMark(
        { project_id: seeded.project_id, story_id: r.id, to: 'ready_for_dev' },
        SYSTEM,
      );
    return seeded;
  };
  let map = await patiently(newMap);
  let next = 0;
  const build = storymapBuild(app);

  const intent = intentOf(app);
  const task = await patiently(() =>
    intent.startTask({ project_id: `intent-${w}`, principal: SYSTEM }, { claims: [] }),
  );

  const service = missions(app);
  const project_path = join(root, 'projects', `m${w}`);
  await mkdir(project_path, { recursive: true });
  const at = { project_path };
  const mission = await patiently(() =>
    service.openMission(
      {
        objective: `mission ${w}`,
        artifact: 'RESULTS.md',
        done_criteria: [{ id: 'C1', description: 'measured' }],
        owner: 'bench',
        // a session a round, none ended (sessions lapse with their lease): no slot limit
        constraints: { project_path, allowed_paths: ['src'], max_parallel_sessions: 1_000_000 },
      },
      LOCAL,
    ),
  );

  for (let n = 0; (await app.log.head()) < target && performance.now() < deadline; n++) {
    const tries = async (what: () => Promise<unknown>): Promise<boolean> => {
      try {
        await what();
        return true;
      } catch (error) {
        refused(error);
        return false;
      }
    };
    await tries(() => governanceRound(app, gp, n));
    // the building loop on the next story of the map; a new map once they are all built
    if (next === map.rows.length && (await tries(async () => (map = await newMap())))) next = 0;
    const row = map.rows[next++];
    if (row) {
      const on = { project_id: map.project_id, story_id: row.id };
      const session = `w${w}-s${n}`;
      await tries(async () => {
        await build.start(on, SYSTEM, { session_id: session, client: null });
        await build.savePlan(
          { ...on, steps: [{ text: 'Write it', files: ['src/a.ts'] }] },
          SYSTEM,
          session,
        );
        const story = await sm.reads.story(map.project_id, row.id);
        await build.report(
          {
            ...on,
            results: (story?.acceptance_criteria ?? []).map((c) => ({
              criterion_id: c.id,
              status: 'pass' as const,
            })),
          },
          SYSTEM,
          { session_id: session, client: null },
        );
        await build.complete(
          { ...on, summary: 'Built', implemented_files: ['src/a.ts'] },
          SYSTEM,
          session,
        );
      });
    }
    for (let k = 0; k < 3; k++)
      await tries(() =>
        intent.claimOp(
          { project_id: `intent-${w}`, principal: SYSTEM, request_id: `w${w}-${n}-${k}` },
          task.task_id,
          'intent_add_inference',
          { n, k },
          {
            epistemic_status: 'inferred',
            statement: `worker ${w} infers ${n}.${k}`,
            confidence: 0.5,
            source_ref: { kind: 'agent_turn', event_id: `w${w}-${n}-${k}` },
          },
          'AddClaim',
        ),
      );
    await tries(async () => {
      const lease = await service.authorizeSession(
        at,
        {
          mission_id: mission.value.mission_id,
          contract_version: 1,
          agent_identity: `agent-${w}-${n}`,
          role: 'implementer',
          contribution: 'work',
          expected_result: 'done',
          duration_minutes: 60,
          criterion_ids: ['C1'],
          request_id: `lease-${w}-${n}`,
        },
        LOCAL,
      );
      for (let k = 0; k < 3; k++)
        await service.checkActivity(
          at,
          {
            session_id: lease.value.session_id,
            activity_step: `step ${k}`,
            criterion_id: 'C1',
            affected_paths: [`src/file-${k}.ts`],
            activity_kind: 'edit',
          },
          LOCAL,
        );
    });
  }
};

/** Writes the log (about `events` events: the workers stop once the head passes it). */
export const buildProductLog = async (
  dir: string,
  events: number,
  minutes = Infinity,
): Promise<Built> => {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const app = await openIntentlog({ dataDir: join(dir, 'data') });
  configureMissions(app, { ownerDir: join(dir, 'owner'), deviceId: 'bench', warnings: [] });
  const started = performance.now();
  const deadline = started + minutes * 60_000;
  const refused: Record<string, number> = {};
  const count = (error: unknown) => {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 80);
    refused[message] = (refused[message] ?? 0) + 1;
  };
  try {
    await Promise.all(
      Array.from({ length: WORKERS }, (_, w) => worker(app, dir, w, events, deadline, count)),
    );
    await app.waitFor(await app.log.head());
    const head = await app.log.head();
    const built: Built = {
      events: head,
      ms: performance.now() - started,
      refused,
      workers: WORKERS,
      stoppedEarly: head < events,
    };
    await writeFile(join(dir, 'built.json'), JSON.stringify(built));
    return built;
  } finally {
    await app.close();
  }
};

/**
 * The cached log of about `events` events: its data dir, built now if it is not there yet, in
 * at most `minutes` (writing through the services is slow: the log then holds fewer events).
 */
export const productLog = async (events: number, note: (m: string) => void, minutes = Infinity) => {
  const dir = join(process.cwd(), '.tmp', `product-log-${events}`);
  const marker = join(dir, 'built.json');
  if (existsSync(marker)) {
    note(`reusing ${dir}`);
    return {
      dataDir: join(dir, 'data'),
      built: JSON.parse(await readFile(marker, 'utf8')) as Built,
    };
  }
  note(`building a product-shaped log of ${events.toLocaleString('en-US')} events in ${dir} …`);
  return { dataDir: join(dir, 'data'), built: await buildProductLog(dir, events, minutes) };
};
