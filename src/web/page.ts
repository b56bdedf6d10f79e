import type { App } from '../app/app.js';
import type { Principal } from '../commands/principal.js';
import type { ModelStore } from '../events/index.js';
import { html, type Html } from './html.js';

/** What a page is rendered with. */
export type PageContext = {
  app: App;
  principal: Principal;
  url: URL;
  /** the path's `:name` segments, decoded */
  params: Record<string, string>;
  /** the read models: the live ones, or rebuilt from the log up to `at` (time travel) */
  models: ModelStore;
  /** the global position the page is shown as of; undefined: live */
  at: number | undefined;
  /** the CSRF token every form of this session carries */
  csrf: string;
  /** which context declares each event type (the timeline's "surface") */
  contextOf: (eventType: string) => string;
  /** every context that declares events, in registry order */
  contexts: readonly string[];
  /**
   * why the read models stop short of the log's head (one could not store its last fold: a
   * full disk), when they do: the page shows what they hold and says so
   */
  stale?: string;
};

export type Rendered = { title: string; body: Html; status?: number };

/** A form's outcome: where to go next, or the page again with a refusal shown. */
export type ActionOutcome = { redirect: string } | { refused: { code: string; message: string } };

/**
 * One page of the web view, declared by its context the way a surface is (`Module.pages`):
 * a path pattern (`/projects/:project/governance`), how to render it, and the forms it posts.
 */
export type Page = {
  path: string;
  /** a label in the main navigation (pages without parameters) */
  nav?: string;
  /** a label among a project's tabs (pages under `/projects/:project/`) */
  projectTab?: string;
  /** the read models it reads; time travel rebuilds only these. Default: every one */
  models?: readonly string[];
  render(ctx: PageContext): Promise<Rendered>;
  /**
   * Parts of the page as JSON by name (`?fragment=<name>`), for the live script to patch the
   * page with what changed; undefined: not found (404).
   */
  fragments?: Readonly<Record<string, (ctx: PageContext) => Promise<unknown>>>;
  /** POST handlers by the form's `op` field; each runs a command as its MCP tool would */
  actions?: Readonly<
    Record<string, (ctx: PageContext, form: URLSearchParams) => Promise<ActionOutcome>>
  >;
};

export const definePage = (page: Page): Page => page;

/**
 * The attributes that make a page's region live: the live script fetches it again (or, with
 * `patch`, the cards that changed) when its project's events arrive. A page shown as of the
 * past never changes, so it gets none: the script would swap in what is true now.
 */
export const liveRegion = (ctx: PageContext, projectId: string, patch?: string): Html =>
  ctx.at !== undefined
    ? html``
    : html`data-live-project="${projectId}"${patch ? html` data-live-patch="${patch}"` : ''}`;

/** The parameters of `path` against `pattern`, or undefined when it does not match. */
export const matchPath = (pattern: string, path: string): Record<string, string> | undefined => {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) return undefined;
  }
  return params;
};

/** A page's path with its parameters filled in. */
export const pathOf = (pattern: string, params: Record<string, string>): string =>
  pattern
    .split('/')
    .map((s) => (s.startsWith(':') ? encodeURIComponent(params[s.slice(1)] ?? '') : s))
    .join('/');
