import { principalId, type Principal } from '../commands/principal.js';
import { href, html, type Html } from './html.js';
import { pathOf, type Page } from './page.js';

export type Shell = {
  title: string;
  body: Html;
  pages: readonly Page[];
  principal?: Principal;
  csrf?: string;
  url?: URL;
  at?: number;
  /** when the event at `at` was committed */
  atTime?: string | undefined;
  /** the project whose tabs to show */
  project?: string;
};

const navLinks = (s: Shell): Html => {
  const links = s.pages.filter((p) => p.nav !== undefined);
  const current = s.url?.pathname;
  return html`<nav aria-label="Main">
    <ul>
      ${links.map(
        (p) =>
          html`<li>
            <a
              href="${href(p.path, { at: s.at })}"
              ${current === p.path ? html`aria-current="page"` : ''}
              >${p.nav}</a
            >
          </li>`,
      )}
    </ul>
  </nav>`;
};

/** A project's pages as tabs: each context adds its own (governance, story map, missions…). */
export const projectTabs = (pages: readonly Page[], project: string, url: URL, at?: number) => {
  const tabs = pages.filter((p) => p.projectTab !== undefined);
  return html`<nav aria-label="Project">
    <ul class="tabs">
      ${tabs.map((p) => {
        const path = pathOf(p.path, { project });
        const current = url.pathname === path ? html`aria-current="page"` : '';
        return html`<li><a href="${href(path, { at })}" ${current}>${p.projectTab}</a></li>`;
      })}
    </ul>
  </nav>`;
};

const who = (s: Shell): Html =>
  s.principal
    ? html`<div class="who">
        Signed in as <strong>${principalId(s.principal)}</strong>
        <form method="post" action="/signout">
          <input type="hidden" name="csrf" value="${s.csrf}" /><button type="submit">
            Sign out
          </button>
        </form>
      </div>`
    : html``;

const asOfBanner = (s: Shell): Html =>
  s.at === undefined
    ? html``
    : html`<p class="as-of" role="status">
        Shown as of global position
        <strong>${s.at}</strong
        >${s.atTime ? html` (committed <time datetime="${s.atTime}">${s.atTime.slice(0, 19).replace('T', ' ')}</time> UTC)` : ''},
        rebuilt from the log. Read-only.
        <a href="${s.url?.pathname ?? '/'}">Back to live</a>
      </p>`;

/** Every page's frame: landmarks, a skip link, the navigation, and a polite live region. */
export const layout = (s: Shell): string =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${s.title} · intentlog</title>
        <link rel="stylesheet" href="/assets/app.css" />
        ${s.csrf ? html`<meta name="csrf-token" content="${s.csrf}" />` : ''}
        <script src="/assets/app.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <p class="brand">intentlog</p>
          ${s.principal ? navLinks(s) : ''} ${who(s)}
        </header>
        <main id="main" tabindex="-1">
          ${asOfBanner(s)}
          <h1>${s.title}</h1>
          ${s.project && s.url ? projectTabs(s.pages, s.project, s.url, s.at) : ''} ${s.body}
        </main>
        <div id="live-status" class="visually-hidden" aria-live="polite"></div>
        <footer><p>intentlog web view: every change here is an event in the log.</p></footer>
      </body>
    </html>`.value;
