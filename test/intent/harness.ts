import { strict as assert } from 'node:assert';
import { realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { App } from '../../src/app/app.js';
import { rootHashOf } from '../../src/app/intent/hook-light.js';
import { readView } from '../../src/app/intent/hook-view-file.js';
import type { Principal } from '../../src/commands/principal.js';
import { serverFactory } from '../../src/mcp/server.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { intentSurface } from '../../src/mcp/intent/index.js';
import { openIntentlog } from '../../src/modules/index.js';
import { silent, SYSTEM } from '../mcp/harness.js';

export type Envelope = {
  ok: boolean;
  operation: string;
  project_id: string | null;
  task_id: string | null;
  result?: Record<string, unknown>;
  error?: { code: string; message: string; retryable?: boolean; details: Record<string, unknown> };
};

/** A temporary directory (a project root or a data dir), removed after the body. */
export const withDir = async <T>(body: (dir: string) => Promise<T>): Promise<T> => {
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-intent-'));
  try {
    return await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** An app on LevelDB in `dataDir` (so its bytes can be searched), with the registered modules. */
export const openAt = (dataDir: string, store?: string): Promise<App> =>
  openIntentlog({ dataDir, ...(store ? { store } : {}) });

/**
 * An in-memory MCP client of the intent surface, offering `roots` as its client roots, acting
 * as the local user (SYSTEM) or the principal given.
 */
export const intentClient = async (
  app: App,
  roots: readonly string[] = [],
  principal: Principal = SYSTEM,
) => {
  const factory = serverFactory({
    app,
    selection: resolveSurfaces([intentSurface], 'intent'),
    transport: 'stdio',
    principalOf: () => principal,
    log: process.env.INTENT_TEST_LOG ? (await import('pino')).pino({}, process.stderr) : silent,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await factory().connect(serverSide);
  const client = new Client({ name: 'test', version: '1' }, { capabilities: { roots: {} } });
  client.setRequestHandler('roots/list', async () => ({
    roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: 'root' })),
  }));
  await client.connect(clientSide);
  const call = async (
    name: string,
    args: Record<string, unknown> = {},
    meta?: Record<string, unknown>,
  ) =>
    (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }))
      .structuredContent as Envelope;
  /** the result of a call that must succeed */
  const ok = async (
    name: string,
    args: Record<string, unknown> = {},
    meta?: Record<string, unknown>,
  ) => {
    const envelope = await call(name, args, meta);
    if (!envelope.ok) throw new Error(`${name} failed: ${JSON.stringify(envelope.error)}`);
    return envelope.result as Record<string, never>;
  };
  return { client, call, ok, close: () => client.close() };
};

/** An app opened at `data` with a client on it for the body; both closed after, whatever happens. */
export const withIntentClient = async <T>(
  data: string,
  roots: readonly string[],
  body: (c: Awaited<ReturnType<typeof intentClient>>, app: App) => Promise<T>,
  principal?: Principal,
): Promise<T> => {
  const app = await openAt(data);
  const c = await intentClient(app, roots, principal);
  try {
    return await body(c, app);
  } finally {
    await c.close();
    await app.close();
  }
};

/** Starts a task for `session` in `root` with these claims, then closes the app (no writer left). */
export const startTaskAt = async (
  data: string,
  root: string,
  session: string,
  claims: unknown[] = [],
) => {
  const task_id = await withIntentClient(data, [root], async (c) =>
    String((await c.ok('intent_start_task', { host_session_id: session, claims })).task_id),
  );
  // a finished writer leaves the project's view written: its stop waits for it
  assert.ok(
    readView(data, rootHashOf(realpathSync(root)))?.tasks.some((t) => t.task_id === task_id),
    'the view holds the task once the writer has closed',
  );
  return task_id;
};

/** Two actors, for the tests of who reaches a task. */
export const alice: Principal = { kind: 'actor', actor_id: 'alice' };
export const bob: Principal = { kind: 'actor', actor_id: 'bob' };

export const userSource = { kind: 'user_event', event_id: 'u-1' };
export const agentSource = { kind: 'agent_turn', event_id: 'turn-1' };
