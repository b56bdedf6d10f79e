import { withProject, type App } from '../app/app.js';
import type { KernelModule } from '../app/kernel-module.js';
import { isDomainError } from '../commands/errors.js';
import { domainErrorOf } from '../commands/store-errors.js';
import type { HttpRoute } from '../mcp/http/handler.js';
import { asset } from './assets.js';
import { filterOf, readsRow, visibleProjects } from './event-rows.js';
import { html } from './html.js';
import { layout } from './layout.js';
import { liveStreams } from './live.js';
import { matchPath, type Page, type PageContext } from './page.js';
import { auditStream } from './pages/audit.js';
import { clearedCookie, cookieSecret, csrfToken, sessionCookie, writeRefusal } from './session.js';
import { signIn, type Session } from './project/sign-in.js';
import { parseTime, positionAtTime, timeOfPosition, timeTravel } from './time-travel.js';

export type WebOptions = {
  app: App;
  /** every page of every registered context (`Module.pages`) */
  pages: readonly Page[];
  /** the registered contexts: which one declares each event type */
  modules: readonly KernelModule[];
};

const HTML = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
};

const page = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { ...HTML, ...headers } });

const redirect = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { location, ...headers } });

/** Where a person without a session is told how to get one. */
const signInNeeded = (pages: readonly Page[], reason: string) =>
  page(
    401,
    layout({
      title: 'Sign in',
      pages,
      body: html`<p>${reason}</p>
        <p>
          Run <code>intentlog open</code> (or <code>intentlog open --actor ID</code>) on this
          machine and open the link it prints. The link works once, for ten minutes.
        </p>`,
    }),
  );

/**
 * A read model that failed to store a fold (a full disk) stays where it was until the store
 * takes writes again: a person reading is shown what it holds, with the reason, rather than an
 * error page. Any other failure of the wait (a bug, a timeout) stays an error.
 */
const staleReason = (error: unknown): string => {
  if ((error as { code?: unknown } | null)?.code !== 'read_model_failed') throw error;
  return domainErrorOf(error)?.message ?? (error as Error).message;
};

/**
 * `?at=N`: a position in the log (clamped to the head); `?at=<ISO time>` (or `?time=`): the
 * last position committed by then. Absent or empty: live.
 */
const atOf = async (app: App, url: URL): Promise<number | undefined> => {
  const raw = url.searchParams.get('at') || url.searchParams.get('time');
  if (raw === null || raw === '') return undefined;
  if (/^\d+$/.test(raw)) {
    const n = Number(raw);
    return Number.isSafeInteger(n) ? Math.min(n, await app.log.head()) : undefined;
  }
  const time = parseTime(raw);
  return Number.isNaN(time) ? undefined : positionAtTime(app, time);
};

/**
 * The web view as routes of the MCP server's port (`HttpOptions.routes`): sign-in, the client
 * assets, the live event stream, the audit run, and every registered page.
 */
export const webView = ({ app, pages, modules }: WebOptions) => {
  const owner = new Map(
    withProject(modules).flatMap((m) => m.events.map((e) => [e.type, m.name] as const)),
  );
  const contextOf = (type: string) => owner.get(type) ?? 'unknown';
  const contexts = withProject(modules)
    .filter((m) => m.events.length > 0)
    .map((m) => m.name);
  const live = liveStreams(app, contextOf);
  const travel = timeTravel(app);

  const contextFor = async (
    url: URL,
    session: Session,
    secret: string,
    found: { page: Page; params: Record<string, string> },
  ): Promise<PageContext> => {
    const at = await atOf(app, url);
    const models = found.page.models;
    const stale =
      at === undefined
        ? await app.waitFor(await app.log.head(), models).then(() => undefined, staleReason)
        : undefined;
    return {
      ...(stale ? { stale } : {}),
      app,
      principal: session.principal,
      url,
      params: found.params,
      models: at === undefined ? app.log.models : await travel(at, models),
      at,
      csrf: csrfToken(secret),
      contextOf,
      contexts,
    };
  };

  const show = async (ctx: PageContext, target: Page, refusal?: string): Promise<Response> => {
    const rendered = await target.render(ctx);
    const notice = refusal ?? (ctx.stale && `Not up to date: ${ctx.stale}`);
    const alert = notice ? html`<p class="refusal" role="alert">${notice}</p>` : '';
    const body = html`${alert}${rendered.body}`;
    const project = ctx.params.project;
    return page(
      refusal ? 422 : (rendered.status ?? 200),
      layout({
        ...rendered,
        body,
        pages,
        principal: ctx.principal,
        csrf: ctx.csrf,
        url: ctx.url,
        ...(ctx.at !== undefined ? { at: ctx.at, atTime: await timeOfPosition(app, ctx.at) } : {}),
        ...(project !== undefined ? { project } : {}),
      }),
    );
  };

  const fragment = async (ctx: PageContext, target: Page): Promise<Response> => {
    const part = target.fragments?.[ctx.url.searchParams.get('fragment') ?? ''];
    const body = part && (await part(ctx));
    return body === undefined
      ? new Response('{"error":"not_found"}', { status: 404, headers: JSON_HEADERS })
      : new Response(JSON.stringify(body), { headers: JSON_HEADERS });
  };

  const act = async (ctx: PageContext, target: Page, form: URLSearchParams) => {
    const op = form.get('op') ?? '';
    const action = target.actions?.[op];
    if (!action) return show(ctx, target, `unknown action "${op}"`);
    try {
      const outcome = await action(ctx, form);
      if ('redirect' in outcome) return redirect(outcome.redirect);
      return show(ctx, target, `${outcome.refused.code}: ${outcome.refused.message}`);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      return show(ctx, target, `${error.code}: ${error.message}`);
    }
  };

  const signedIn = async (request: Request, url: URL, secret: string, session: Session) => {
    const post = request.method === 'POST';
    const form = post ? new URLSearchParams(await request.text()) : undefined;
    if (post) {
      const refused = writeRefusal(
        request,
        secret,
        form?.get('csrf') ?? request.headers.get('x-csrf-token'),
      );
      if (refused)
        return page(
          403,
          layout({ title: 'Refused', pages, body: html`<p role="alert">${refused}</p>` }),
        );
    }
    if (url.pathname === '/signout' && post) {
      await signIn(app).signOut(session.codeId);
      return redirect('/', { 'set-cookie': clearedCookie() });
    }
    if (url.pathname === '/events' && !post)
      return live.stream(
        filterOf(url.searchParams),
        await visibleProjects(app, session.principal),
        readsRow(app, session.principal),
      );
    if (url.pathname === '/audit' && post) return auditStream(app, session.principal);
    for (const target of pages) {
      const params = matchPath(target.path, url.pathname);
      if (!params) continue;
      const ctx = await contextFor(url, session, secret, { page: target, params });
      if (!form && url.searchParams.has('fragment')) return fragment(ctx, target);
      if (!form) return show(ctx, target);
      if (ctx.at !== undefined)
        return show(ctx, target, 'a page shown as of the past is read-only');
      return act(ctx, target, form);
    }
    return undefined;
  };

  const route: HttpRoute = async (request) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/assets/')) return asset(url.pathname.slice('/assets/'.length));
    if (url.pathname === '/signin' && request.method === 'GET') {
      const session = await signIn(app)
        .redeem(url.searchParams.get('code') ?? '')
        .catch((error: unknown) => {
          if (isDomainError(error)) return undefined;
          throw error;
        });
      if (!session) return signInNeeded(pages, 'This sign-in link is used, expired or unknown.');
      return redirect('/', { 'set-cookie': sessionCookie(session) });
    }
    const secret = cookieSecret(request);
    const session = secret ? await signIn(app).session(secret) : undefined;
    if (!secret || !session) {
      const known =
        url.pathname === '/events' || pages.some((p) => matchPath(p.path, url.pathname));
      return known ? signInNeeded(pages, 'You are not signed in.') : undefined;
    }
    return signedIn(request, url, secret, session);
  };

  return {
    routes: [route] as readonly HttpRoute[],
    /** ends the live streams, so that the server can stop */
    close: () => live.closeAll(),
    /** a sign-in link for `principal` at the server's base URL (the `serve` banner's line) */
    async signInLink(base: string) {
      const { code } = await signIn(app).issueCode();
      return `${base}/signin?code=${code}`;
    },
  };
};
