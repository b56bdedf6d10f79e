import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from '../../src/app/app.js';
import type { Principal } from '../../src/commands/principal.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, openIntentlog, surfacesOf } from '../../src/modules/index.js';
import { silent } from '../mcp/harness.js';
import { httpClient, issueToken } from '../mcp/http-harness.js';
import { fakeClock } from '../missions/harness.js';
import { callOf, type Call } from './session.js';

export type BuildWorld = {
  app: App;
  clock: ReturnType<typeof fakeClock>;
  /** a new MCP session (its own Mcp-Session-Id) for the principal */
  session(principal?: Principal): Promise<Call>;
  /** a stateless client: no session id, each request stands alone */
  stateless(principal?: Principal): Promise<Call>;
};

export const fiona: Principal = { kind: 'actor', actor_id: 'fiona' };

/**
 * `intentlog serve` in this process with the story map served twice: stateful (sessions) at
 * /mcp, stateless at /mcp/storymap; a fake clock moves claims into quiet.
 */
export const withBuildServer = async (body: (w: BuildWorld) => Promise<void>) => {
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-build-'));
  const clock = fakeClock();
  const app = await openIntentlog({ dataDir: dir, store: 'memory', clock: clock.clock });
  const all = surfacesOf(modules);
  const selection = resolveSurfaces(all, 'storymap');
  const stateful = await serveOverHttp({
    app,
    selection,
    log: silent,
    host: '127.0.0.1',
    port: 0,
    stateful: true,
  });
  const stateless = await serveOverHttp({
    app,
    selection,
    mounted: all,
    log: silent,
    host: '127.0.0.1',
    port: 0,
    stateful: false,
  });
  const clients: { close(): Promise<void> }[] = [];
  const tokens = new Map<string, string>();
  const tokenOf = async (p: Principal) => {
    const key = JSON.stringify(p);
    if (!tokens.has(key)) tokens.set(key, await issueToken(app, p));
    return tokens.get(key)!;
  };
  const open = async (url: string, p: Principal) => {
    const { client } = await httpClient(url, { token: await tokenOf(p) });
    clients.push(client);
    return callOf(client);
  };
  try {
    await body({
      app,
      clock,
      session: (p = fiona) => open(stateful.url, p),
      stateless: (p = fiona) => open(`${stateless.url}/storymap`, p),
    });
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await stateful.close();
    await stateless.close();
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
};
