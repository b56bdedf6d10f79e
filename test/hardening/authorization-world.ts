import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { App } from '../../src/app/app.js';
import { governance } from '../../src/app/governance/index.js';
import { storymap } from '../../src/app/storymap/index.js';
import { writeLink } from '../../src/app/storymap/link.js';
import { runs } from '../../src/app/storymap/runs.js';
import { SYSTEM, type Principal } from '../../src/commands/principal.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { silent, withApp } from '../mcp/harness.js';
import { httpClient, issueToken } from '../mcp/http-harness.js';
import { architect, impl, lead, pa, pm, po, reviewer } from '../governance/fixture.js';
import { VISION } from '../storymap/session.js';

/**
 * The world the authorization walk runs in: two projects and a stranger.
 * - G, a governance project: a member in each governance role, and Cora, who holds only a
 *   story-map role there (a member of G, but not on the governance surface).
 * - S, Fiona's story map (Fiona its owner): Eddie editor, Cora commenter, Vic viewer, and
 *   Olivia, who holds only a governance role there. S is the project the local server links.
 * - Sam, a member of neither, with a story map of his own (T).
 */
export const G = 'acme-g';

/** G's cast: governance's fixture (Olivia PO … Rita REVIEWER), one actor per role. */
const GOVERNANCE_MEMBERS = [po, pm, pa, architect, lead, impl, reviewer];
export const GOVERNANCE_CAST: Readonly<Record<string, string>> = Object.fromEntries(
  GOVERNANCE_MEMBERS.map((c) => [c.actor_id, c.role]),
);

export const STORYMAP_CAST = {
  fiona: 'owner',
  eddie: 'editor',
  cora: 'commenter',
  vic: 'viewer',
} as const;

/** A principal of the walk by name: `system`, or an actor's id. */
export type Who = string;

export const principalOf = (who: Who): Principal =>
  who === 'system' ? SYSTEM : { kind: 'actor', actor_id: who };

const sys = (key: string) => ({ principal: SYSTEM, idempotencyKey: key });

/** G with its cast; Cora's story-map role there is her only one in G. */
const governanceProject = async (app: App) => {
  const g = governance(app);
  await g.createProject({ project_id: G, name: 'Acme' }, sys('g'));
  for (const { actor_id, role } of GOVERNANCE_MEMBERS)
    if (role !== 'SYSTEM')
      await g.registerActor({ project_id: G, actor_id, role }, sys(`g-${actor_id}`));
  await app.projects.registerActor(
    { project_id: G, actor_id: 'cora', surface: 'storymap', role: 'commenter' },
    sys('g-cora'),
  );
};

const fiona = principalOf('fiona');

/** S: a map with a complete vision, three stories, a decision and a run; its cast. */
const storyMap = async (app: App, name: string, by: Principal) => {
  const service = storymap(app);
  const { project_id } = await service.createProject(
    { name, idea: 'Print books', client: null },
    by,
  );
  await service.setVision({ project_id, answers: VISION }, by);
  await service.createStories(
    {
      project_id,
      stories: ['Upload photos', 'Arrange pages', 'Order the book'].map((title) => ({
        title,
        acceptance_criteria: [{ text: `${title} works`, priority: 'must' }],
      })),
    },
    by,
  );
  return project_id;
};

export type World = {
  app: App;
  /** S, Fiona's story map */
  S: string;
  /** T, Sam's own story map */
  T: string;
  /** the MCP client of each principal on each endpoint */
  client(who: Who, endpoint: Endpoint): Client;
};

export type Endpoint = 'mcp' | 'storymap' | 'storymap-local' | 'intent' | 'missions';

const everyone: readonly Who[] = [
  'system',
  ...(Object.keys(GOVERNANCE_CAST) as Who[]),
  ...(Object.keys(STORYMAP_CAST) as Who[]),
  'sam',
];

/**
 * `intentlog serve` in this process (governance and system at /mcp, every surface mounted at
 * /mcp/<surface>; the local story map on a stateful server of its own), the world written
 * through the services, and one client per principal and endpoint, each with its own bearer
 * token.
 */
export const withWorld = (body: (world: World) => Promise<void>) =>
  withApp(async (app) => {
    const linked = await mkdtemp(join(tmpdir(), 'intentlog-authz-root-'));
    await governanceProject(app);
    const S = await storyMap(app, 'Photo Book', fiona);
    for (const [actor_id, role] of Object.entries(STORYMAP_CAST).slice(1))
      await app.projects.registerActor(
        { project_id: S, actor_id, surface: 'storymap', role },
        { principal: fiona },
      );
    await app.projects.registerActor({ project_id: S, actor_id: 'olivia', role: 'PO' }, sys('s-o'));
    await runs(app).create(
      {
        project_id: S,
        title: 'First',
        stories: ['PB-1', 'PB-2'],
        concurrency: 1,
        on_failure: 'continue',
      },
      fiona,
    );
    const T = await storyMap(app, 'Sams Tools', principalOf('sam'));
    await writeLink(linked, { project_id: S });
    process.env.INTENTLOG_ROOT = linked;
    const all = surfacesOf(modules);
    const serve = (selection: string, stateful: boolean) =>
      serveOverHttp({
        app,
        selection: resolveSurfaces(all, selection),
        mounted: all,
        log: silent,
        host: '127.0.0.1',
        port: 0,
        stateful,
      });
    const stateless = await serve('governance,system', false);
    // the local server marks a story in progress for its MCP session: one it has (stdio, or
    // stateful HTTP as here), since its tools take no session name
    const stateful = await serve('storymap-local', true);
    const urls: Record<Endpoint, string> = {
      mcp: stateless.url,
      storymap: `${stateless.url}/storymap`,
      'storymap-local': stateful.url,
      intent: `${stateless.url}/intent`,
      missions: `${stateless.url}/missions`,
    };
    const clients = new Map<string, Client>();
    try {
      for (const who of everyone) {
        const token = await issueToken(app, principalOf(who));
        for (const [endpoint, url] of Object.entries(urls))
          clients.set(`${who} ${endpoint}`, (await httpClient(url, { token })).client);
      }
      await body({ app, S, T, client: (who, endpoint) => clients.get(`${who} ${endpoint}`)! });
    } finally {
      for (const c of clients.values()) await c.close();
      await stateless.close();
      await stateful.close();
      await rm(linked, { recursive: true, force: true });
    }
  });
