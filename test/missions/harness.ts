import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { App } from '../../src/app/app.js';
import { configureMissions, missions } from '../../src/app/missions/service.js';
import { LEGACY_MOUNT_STREAM } from '../../src/commands/missions/mounts.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { pendingCodes } from '../../src/app/missions/owner-channel.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, openIntentlog, surfacesOf } from '../../src/modules/index.js';
import { connect } from '../mcp/harness.js';

/** A fake clock the test moves by hand. */
export const fakeClock = (start = '2026-12-01T10:00:00.000Z') => {
  let now = Date.parse(start);
  return { clock: () => new Date(now), advance: (seconds: number) => (now += seconds * 1000) };
};

export type MissionsWorld = {
  app: App;
  client: Client;
  dirs: { data: string; owner: string; project: string; outside: string };
  clock: ReturnType<typeof fakeClock>;
  /** calls a tool and returns its envelope (structuredContent) */
  call(name: string, args: Record<string, unknown>): Promise<Envelope>;
  /** the code the owner reads for the newest pending challenge */
  ownerCode(): Promise<string>;
};

/**
 * The missions surface's flat envelope (HAI-MCP's shape): the result's fields at the top level
 * (and under `result`), a refusal's code in `error`, its details at the top level and under
 * `details`.
 */
export type Envelope = {
  ok: boolean;
  project_id: string | null;
  result?: Record<string, unknown> & { [k: string]: unknown };
  error?: string;
  /** a gate refusal of a presented code: invalid_owner_code, no_pending_challenge, … */
  detail?: string;
  message?: string;
  details?: Record<string, unknown>;
  [field: string]: unknown;
};

/** 'ok', or the refusal's code (a gate refusal of a presented code: `<error>:<detail>`). */
export const codeOf = (e: Envelope): string =>
  e.ok ? 'ok' : e.detail ? `${e.error}:${e.detail}` : e.error!;

/**
 * A missions world: a data home, an owner directory outside it, a project directory, a fake
 * clock, and a real MCP client of the missions surface. `store`: memory unless a test needs
 * the log to outlive the app.
 */
export const withMissions = async <T>(
  body: (w: MissionsWorld) => Promise<T>,
  /** store: `memory` (default) or `level` (the log outlives the app); root: reuse a world's dirs */
  options: {
    store?: 'memory' | 'level';
    gateMode?: 'nonce' | 'ack_legacy';
    root?: string;
    /** where the fake clock starts (default 2026-12-01T10:00Z) */
    start?: string;
    /** the modules to open (default: every registered one) */
    modules?: typeof modules;
  } = {},
): Promise<T> => {
  const root = options.root ?? (await mkdtemp(join(tmpdir(), 'intentlog-missions-')));
  const dirs = {
    data: join(root, 'home'),
    owner: join(root, 'owner'),
    project: join(root, 'project'),
    outside: join(root, 'outside'),
  };
  for (const d of Object.values(dirs)) await mkdir(d, { recursive: true });
  const clock = fakeClock(options.start);
  const app = await openIntentlog({
    store: options.store ?? 'memory',
    dataDir: dirs.data,
    clock: clock.clock,
    ...(options.modules ? { modules: options.modules } : {}),
  });
  configureMissions(app, {
    ownerDir: dirs.owner,
    gateMode: options.gateMode ?? 'nonce',
    codeTtlSeconds: 600,
    deviceId: 'laptop',
    warnings: [],
  });
  const client = await connect(app, resolveSurfaces(surfacesOf(modules), 'missions'));
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })).structuredContent as Envelope;
  const ownerCode = async () => {
    const [newest] = (await pendingCodes(dirs.owner, clock.clock().toISOString())).codes;
    if (!newest) throw new Error('no pending owner code');
    return newest.code;
  };
  try {
    return await body({ app, client, dirs, clock, call, ownerCode });
  } finally {
    await client.close();
    await app.close();
    if (!options.root) await rm(root, { recursive: true, force: true });
  }
};

/** A mount recorded in the earlier mount table (before mounts moved onto the project aggregate). */
export const appendLegacyMount = (
  app: App,
  mount: { project_id: string; local_path: string; root_hash: string; reason: string },
) =>
  app.log.appendToStream(
    LEGACY_MOUNT_STREAM,
    [{ type: 'mission_project.mounted', data: { ...mount, device_id: 'laptop', implicit: false } }],
    { meta: missions(app).core.meta(SYSTEM) },
  );

/** Waits for the artifact sink to write the files up to the log's head (it runs off the write path). */
export const artifactsWritten = async (app: App): Promise<void> => {
  if (!(await missions(app).core.artifactsSettled()))
    throw new Error('the artifact sink did not reach the log head');
};

export const contractArgs = (project: string, extra: Record<string, unknown> = {}) => ({
  objective: 'Ship the CSV export of the weekly report',
  artifact: 'src/export/csv.ts',
  done_criteria: [
    { id: 'C1', description: 'export writes a valid CSV file' },
    { id: 'C2', description: 'tests cover empty weeks' },
  ],
  owner: 'sam',
  non_goals: ['pdf export'],
  constraints: {
    project_path: project,
    allowed_paths: ['src/export', 'test'],
    capabilities: ['commit'],
    max_parallel_sessions: 2,
  },
  ...extra,
});
