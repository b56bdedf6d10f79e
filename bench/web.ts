import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { chromium, type Page } from 'playwright-core';
import { governance } from '../src/app/governance/index.js';
import type { App } from '../src/app/app.js';
import { serveOverHttp } from '../src/mcp/serve.js';
import { resolveSurfaces } from '../src/mcp/surfaces/index.js';
import { modules, openIntentlog, pagesOf, surfacesOf } from '../src/modules/index.js';
import { webView } from '../src/web/routes.js';
import { signIn } from '../src/web/project/sign-in.js';
import { median, percentile } from './stats.js';

/**
 * `npm run bench:web`: the web view on a log of 20,000 events (LevelDB), in Debian's chromium.
 * First contentful paint of the timeline and governance pages, an action to its update in a
 * second tab (p95), and a page as of an old position. Appends its table to bench/RESULTS.md.
 */
const EVENTS = Number(process.env.WEB_BENCH_EVENTS ?? 20_000);
const P = 'bench';
const actor = (actor_id: string) => ({ kind: 'actor' as const, actor_id });

/** Work packages through issue, claim, submit, review request and review: 5 events each. */
const fill = async (app: App) => {
  const g = governance(app);
  let key = 0;
  const call = (who: string) => ({ principal: actor(who), idempotencyKey: `b${++key}` });
  const sys = { principal: { kind: 'system' as const }, idempotencyKey: 'p' };
  await g.createProject({ project_id: P, name: 'Bench' }, sys);
  const cast = { po: 'PO', impl: 'IMPLEMENTER', rev: 'REVIEWER' } as const;
  for (const [id, role] of Object.entries(cast))
    await g.registerActor({ project_id: P, actor_id: id, role }, { ...sys, idempotencyKey: id });
  const one = async (n: number) => {
    const wp = { project_id: P, work_package_id: `WP-${n}` };
    await g.issueWorkPackage({ ...wp, title: `Package ${n}` }, call('po'));
    await g.claimWorkPackage(wp, call('impl'));
    await g.submitResult({ ...wp, summary: 'done' }, call('impl'));
    const { result } = await g.requestReview({ ...wp, reviewer_id: 'rev' }, call('po'));
    await g.submitReview(
      { project_id: P, review_id: result.review_id, verdict: 'APPROVE' },
      call('rev'),
    );
    if (n % 2 === 0) await g.closeGate({ ...wp, outcome: 'ACCEPT' }, call('po'));
  };
  const packages = Math.ceil(EVENTS / 5.5);
  for (let n = 0; n < packages; n += 32)
    await Promise.all(Array.from({ length: Math.min(32, packages - n) }, (_, i) => one(n + i)));
  await app.waitFor(await app.log.head());
};

/** The page's first contentful paint, waiting for it when it has not happened yet. */
const fcp = (page: Page): Promise<number> =>
  page.evaluate(`new Promise((resolve) => new PerformanceObserver((list) => {
    const paint = list.getEntriesByName('first-contentful-paint')[0];
    if (paint) resolve(paint.startTime);
  }).observe({ type: 'paint', buffered: true }))`);

const ms = (n: number) => `${n.toFixed(0)} ms`;

const main = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-web-bench-'));
  const load = loadavg()[0]!.toFixed(1);
  const app = await openIntentlog({ dataDir: join(dir, 'data'), store: 'level' });
  const started = Date.now();
  await fill(app);
  const head = await app.log.head();
  console.log(`filled ${head} events in ${Date.now() - started} ms`);
  const web = webView({ app, pages: pagesOf(modules), modules });
  const listening = await serveOverHttp({
    app,
    selection: resolveSurfaces(surfacesOf(modules), 'governance'),
    log: pino({ level: 'silent' }),
    host: '127.0.0.1',
    port: 0,
    stateful: false,
    routes: web.routes,
  });
  const base = listening.url.replace(/\/mcp$/, '');
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  const rows: string[][] = [];
  try {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const { code } = await signIn(app).issueCode(actor('po'));
    await tab.goto(`${base}/signin?code=${code}`);
    const gov = `${base}/projects/${P}/governance`;
    for (const [name, url] of [
      ['timeline', `${base}/timeline`],
      ['governance', gov],
    ] as const) {
      const paints: number[] = [];
      for (let i = 0; i < 5; i++) {
        const page = await context.newPage();
        await page.goto(url);
        paints.push(await fcp(page));
        await page.close();
      }
      rows.push([
        `first load of the ${name} page to first contentful paint`,
        `first ${ms(paints[0]!)}, median of 5 ${ms(median(paints))}`,
        '< 500 ms',
      ]);
    }

    // an action (the issue form's POST) to its update in a second tab
    const other = await context.newPage();
    await other.goto(gov);
    const [cookie] = await context.cookies();
    const html = await (
      await fetch(gov, { headers: { cookie: `${cookie!.name}=${cookie!.value}` } })
    ).text();
    const csrf = /name="csrf-token" content="([0-9a-f]+)"/.exec(html)![1]!;
    const lags: number[] = [];
    for (let i = 0; i < 20; i++) {
      const id = `NEW-${i}`;
      const seen = other.waitForFunction(
        `document.getElementById('live-region')?.textContent?.includes(${JSON.stringify(id)})`,
        undefined,
        { polling: 'raf', timeout: 30_000 },
      );
      const t0 = performance.now();
      const response = await fetch(gov, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie: `${cookie!.name}=${cookie!.value}`,
          origin: base,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          csrf,
          op: 'issue',
          work_package_id: id,
          title: `New ${i}`,
        }).toString(),
      });
      if (response.status !== 303) throw new Error(`action refused: ${response.status}`);
      await seen;
      lags.push(performance.now() - t0);
    }
    rows.push([
      'an action to its update in a second tab (20 actions)',
      `p50 ${ms(median(lags))}, p95 ${ms(percentile(lags, 95))}`,
      'p95 < 500 ms',
    ]);

    // the governance page as of old positions (each rebuilt from the log: no cache hit)
    const past: number[] = [];
    for (const at of [1000, 4000, 8000, 12000, 16000].map((p) => Math.min(p, head))) {
      const t0 = performance.now();
      const page = await context.newPage();
      await page.goto(`${gov}?at=${at}`);
      await page.waitForLoadState('load');
      past.push(performance.now() - t0);
      await page.close();
    }
    rows.push([
      'the governance page as of an old position, to load (5 positions)',
      `median ${ms(median(past))}, max ${ms(Math.max(...past))}`,
      '< 1 s',
    ]);
  } finally {
    await browser.close();
    web.close();
    await listening.close();
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
  const table = [
    '',
    '## Web view (`npm run bench:web`, run once: a noisy shared machine)',
    '',
    `Log of ${head.toLocaleString('en')} events (LevelDB), Debian chromium, load average ${load} at the start.`,
    '',
    '| what | measured | target |',
    '| --- | --- | --- |',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
  ].join('\n');
  console.log(table);
  const file = new URL('./RESULTS.md', import.meta.url);
  await writeFile(file, (await readFile(file, 'utf8')).trimEnd() + '\n' + table);
};

await main();
