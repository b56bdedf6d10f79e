import { governance } from '../../src/app/governance/index.js';
import type { App } from '../../src/app/app.js';
import type { Principal } from '../../src/commands/principal.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, openIntentlog, pagesOf, surfacesOf } from '../../src/modules/index.js';
import { signIn } from '../../src/web/project/sign-in.js';
import { webView } from '../../src/web/routes.js';
import { silent } from '../mcp/harness.js';
import { P, impl, pm, po, reviewer } from '../governance/fixture.js';

export const cast = [po, pm, impl, reviewer];
export const actor = (actor_id: string): Principal => ({ kind: 'actor', actor_id });

export type Web = {
  app: App;
  /** http://127.0.0.1:<port> */
  base: string;
  mcp: string;
  /** moves the fake clock on */
  advance(ms: number): void;
  /** signs in through a fresh one-time code; the session cookie's value */
  signInAs(principal?: Principal): Promise<string>;
  /** a printed sign-in link, as `intentlog open` prints it */
  link(principal?: Principal): Promise<string>;
};

const setup = async (app: App) => {
  const g = governance(app);
  const sys = { principal: { kind: 'system' as const }, idempotencyKey: 'p' };
  await g.createProject({ project_id: P, name: 'Acme' }, sys);
  for (const c of cast)
    await g.registerActor(
      { project_id: P, actor_id: c.actor_id, role: c.role as never },
      { ...sys, idempotencyKey: `r-${c.actor_id}` },
    );
};

/** The web view served over HTTP for an app that exists already (another context's world). */
export const serveWeb = async (app: App) => {
  const web = webView({ app, pages: pagesOf(modules), modules });
  const listening = await serveOverHttp({
    app,
    selection: resolveSurfaces(surfacesOf(modules), 'governance'),
    log: silent,
    host: '127.0.0.1',
    port: 0,
    stateful: false,
    routes: web.routes,
  });
  const base = listening.url.replace(/\/mcp$/, '');
  const link = async (principal?: Principal) => {
    const { code } = await signIn(app).issueCode(principal);
    return `${base}/signin?code=${code}`;
  };
  const signInAs = async (principal?: Principal) => {
    const response = await fetch(await link(principal), { redirect: 'manual' });
    const cookie = /intentlog_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '');
    if (response.status !== 303 || !cookie) throw new Error(`sign-in failed: ${response.status}`);
    return cookie[1]!;
  };
  return {
    base,
    mcp: listening.url,
    link,
    signInAs,
    close: async () => {
      web.close();
      await listening.close();
    },
  };
};

/** `intentlog serve` in this process with the web view, over a memory log with project P. */
export const withWeb = async (
  body: (web: Web) => Promise<void>,
  options: { project?: boolean } = {},
) => {
  let now = Date.parse('2026-12-01T12:00:00Z');
  const app = await openIntentlog({
    store: 'memory',
    dataDir: '/nonexistent',
    clock: () => new Date(now),
  });
  const served = await serveWeb(app);
  try {
    if (options.project !== false) await setup(app);
    await body({
      app,
      base: served.base,
      mcp: served.mcp,
      advance: (ms) => void (now += ms),
      link: served.link,
      signInAs: served.signInAs,
    });
  } finally {
    await served.close();
    await app.close();
  }
};

/** The CSRF token a page carries for its session. */
export const csrfOf = (page: string): string =>
  /name="csrf-token" content="([0-9a-f]+)"/.exec(page)![1]!;

/** A form POST from a page of `origin` (default: the server's own). */
export const postForm = (
  web: Web,
  path: string,
  cookie: string,
  fields: Record<string, string>,
  origin = web.base,
) =>
  fetch(`${web.base}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie: `intentlog_session=${cookie}`,
      origin,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(fields).toString(),
  });

export const getPage = (web: Pick<Web, 'base'>, path: string, cookie?: string) =>
  fetch(`${web.base}${path}`, {
    redirect: 'manual',
    headers: cookie ? { cookie: `intentlog_session=${cookie}` } : {},
  });
