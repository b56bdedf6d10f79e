import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { chromium, type Page } from 'playwright-core';
import { serveOverHttp } from '../src/mcp/serve.js';
import { resolveSurfaces } from '../src/mcp/surfaces/index.js';
import { modules, openIntentlog, pagesOf, surfacesOf } from '../src/modules/index.js';
import { webView } from '../src/web/routes.js';
import { signIn } from '../src/web/project/sign-in.js';
import { median, percentile } from './stats.js';
import { fill, STORIES } from './web-storymap-fill.js';

/**
 * `node --import tsx bench/web-storymap.ts`: the story-map board on a map of 2,000 stories and
 * about 20,000 events (LevelDB) in Debian's chromium: first contentful paint, what the server
 * spends and sends, a founder action to the board's update in a second tab, and the board as of
 * an old position (navigated to in an open tab, as the time slider and the project's tabs do:
 * opening a new tab is no part of it). Appends its table to bench/RESULTS.md.
 */
const fcp = (page: Page): Promise<number> =>
  page.evaluate(`new Promise((resolve) => new PerformanceObserver((list) => {
    const paint = list.getEntriesByName('first-contentful-paint')[0];
    if (paint) resolve(paint.startTime);
  }).observe({ type: 'paint', buffered: true }))`);

const ms = (n: number) => `${n.toFixed(0)} ms`;

const main = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-web-sm-bench-'));
  const load = loadavg()[0]!.toFixed(1);
  const app = await openIntentlog({ dataDir: join(dir, 'data'), store: 'level' });
  const started = Date.now();
  const project = await fill(app);
  const head = await app.log.head();
  console.log(`filled ${head} events in ${Date.now() - started} ms`);
  const web = webView({ app, pages: pagesOf(modules), modules });
  const listening = await serveOverHttp({
    app,
    selection: resolveSurfaces(surfacesOf(modules), 'storymap'),
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
    const { code } = await signIn(app).issueCode();
    await tab.goto(`${base}/signin?code=${code}`);
    const [cookie] = await context.cookies();
    const headers = { cookie: `${cookie!.name}=${cookie!.value}` };
    const board = `${base}/projects/${project}/storymap`;

    const server: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      bytes = (await (await fetch(board, { headers })).arrayBuffer()).byteLength;
      server.push(performance.now() - t0);
    }
    rows.push([
      'the board: server render and transfer (fetch, 5 runs)',
      `median ${ms(median(server))}, ${(bytes / 1024).toFixed(0)} KB of HTML`,
      '',
    ]);
    const paints: number[] = [];
    for (let i = 0; i < 5; i++) {
      const page = await context.newPage();
      await page.goto(board);
      paints.push(await fcp(page));
      await page.close();
    }
    rows.push([
      `first load of the board (${STORIES} stories) to first contentful paint`,
      `first ${ms(paints[0]!)}, median of 5 ${ms(median(paints))}`,
      '< 500 ms',
    ]);

    const other = await context.newPage();
    await other.goto(board);
    const todo = `${base}/projects/${project}/todo`;
    const csrf = /name="csrf-token" content="([0-9a-f]+)"/.exec(
      await (await fetch(todo, { headers })).text(),
    )![1]!;
    const lags: number[] = [];
    for (let i = 0; i < 10; i++) {
      const key = `BM-${i + 1}`;
      const seen = other.waitForFunction(
        `[...document.querySelectorAll('li.card.st-ready_for_dev .key')].some((k) => k.textContent === ${JSON.stringify(key)})`,
        undefined,
        { polling: 'raf', timeout: 30_000 },
      );
      const t0 = performance.now();
      const response = await fetch(todo, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...headers, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, op: 'ready', story_id: key }).toString(),
      });
      if (response.status !== 303) throw new Error(`action refused: ${response.status}`);
      await seen;
      lags.push(performance.now() - t0);
    }
    rows.push([
      "mark ready on the to-do to the board's update in a second tab (10 actions)",
      `p50 ${ms(median(lags))}, p95 ${ms(percentile(lags, 95))}`,
      'p95 < 500 ms',
    ]);

    // As a person travels: the time slider sets the timeline to a position, then the board's
    // tab opens the board as of it, in the tab they have open (the board is timed). Each
    // position is new to the server (the first from 0, each later one from the rebuild kept
    // before it); the server's part is the navigation's time to its first byte, the rest is
    // Chromium loading the page.
    const past: number[] = [];
    const serverPart: number[] = [];
    const traveller = await context.newPage();
    for (const at of [2000, 6000, 12000].map((p) => Math.min(p, head))) {
      await traveller.goto(`${base}/timeline?at=${at}`);
      const t0 = performance.now();
      await traveller.goto(`${board}?at=${at}`, { waitUntil: 'load' });
      past.push(performance.now() - t0);
      serverPart.push(
        await traveller.evaluate<number>(
          `(([n]) => n.responseStart - n.requestStart)(performance.getEntriesByType('navigation'))`,
        ),
      );
    }
    rows.push([
      'the board as of an old position, to load, navigated in an open tab (positions 2,000, 6,000, 12,000 in turn: the first from 0, each later one from the rebuild kept before it)',
      `median ${ms(median(past))}, max ${ms(Math.max(...past))} (${past.map(ms).join(', ')}); the server's part (request to first byte) ${serverPart.map(ms).join(', ')}`,
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
    '## Web view: the story-map board (`node --import tsx bench/web-storymap.ts`, run once; the load average is given below)',
    '',
    `Map of ${STORIES} stories, log of ${head.toLocaleString('en')} events (LevelDB), Debian chromium, load average ${load} at the start.`,
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
