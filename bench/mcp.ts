import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import pino from 'pino';
import { SYSTEM, type Principal } from '../src/commands/principal.js';
import { serveOverHttp } from '../src/mcp/serve.js';
import { assertNoClash, resolveSurfaces } from '../src/mcp/surfaces/index.js';
import type { Surface } from '../src/mcp/tool.js';
import { modules, openIntentlog, surfacesOf } from '../src/modules/index.js';
import { serveEchoHttp } from './mcp-echo.js';
import { median } from './stats.js';

/**
 * `npm run bench:mcp`: tool calls per second over Streamable HTTP (stateless JSON, as `serve`
 * runs by default) for the SDK's own echo tool beside a query (`get_project`) and a durable
 * mutation (`record_decision`), 1 and 32 clients, interleaved in one run; the same query served
 * with one surface and with every surface on one endpoint; sequential calls over stdio; and
 * every surface's `tools/list` size. Prints markdown for bench/RESULTS.md.
 */
const SECONDS = Number(process.env.BENCH_MCP_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_MCP_ROUNDS ?? 3);
const PROTOCOL = '2025-11-25';
const silent = pino({ level: process.env.BENCH_LOG ?? 'silent' });
const all = surfacesOf(modules);

/** The most surfaces that can share one endpoint (two that define one tool name cannot). */
const widest = (surfaces: readonly Surface[]): Surface[] =>
  surfaces.reduce<Surface[]>((chosen, s) => {
    try {
      assertNoClash([...chosen, s]);
      return [...chosen, s];
    } catch {
      return chosen;
    }
  }, []);

type Target = { label: string; url: string; token?: string; tool: string; args: () => unknown };

let ids = 0;
const callOnce = async (t: Target): Promise<void> => {
  const response = await fetch(t.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      ...(t.token ? { authorization: `Bearer ${t.token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++ids,
      method: 'tools/call',
      params: { name: t.tool, arguments: t.args() },
    }),
  });
  const body = (await response.json()) as { result?: { isError?: boolean }; error?: unknown };
  if (!response.ok || body.error || body.result?.isError)
    throw new Error(`${t.label}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
};

const rate = async (t: Target, clients: number): Promise<number> => {
  const until = Date.now() + SECONDS * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        await callOnce(t);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
};

const listSize = async (url: string, token: string): Promise<number> => {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  return (await response.text()).length;
};

/** A spawned stdio server and one client, warmed up with 50 calls of `tool`. */
const stdioClient = async (
  command: string,
  args: string[],
  tool: string,
  toolArgs: Record<string, unknown>,
) => {
  const transport = new StdioClientTransport({ command, args, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const call = async () => {
    const r = await client.callTool({ name: tool, arguments: toolArgs });
    if (r.isError) throw new Error(`${tool} over stdio: ${JSON.stringify(r).slice(0, 300)}`);
  };
  for (let i = 0; i < 50; i++) await call();
  /** Sequential calls for SECONDS: one call at a time. */
  const rate = async () => {
    const until = Date.now() + SECONDS * 1000;
    let done = 0;
    const started = performance.now();
    while (Date.now() < until) {
      await call();
      done++;
    }
    return done / ((performance.now() - started) / 1000);
  };
  return { rate, close: () => client.close() };
};

const pct = (a: number, b: number) => `${Math.round((100 * a) / b)}%`;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const main = async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'intentlog-bench-mcp-'));
  const app = await openIntentlog({ dataDir });
  const token = async (p: Principal) => {
    const issued = await app.tokens.issue(p, 'bench', SYSTEM);
    await app.waitFor(issued.position);
    return issued.token;
  };
  const system = await token(SYSTEM);
  const po = await token({ kind: 'actor', actor_id: 'olivia' });
  const wide = widest(all);
  const listening = await serveOverHttp({
    app,
    selection: resolveSurfaces(all, wide.map((s) => s.name).join(',')),
    mounted: all,
    log: silent,
    host: '127.0.0.1',
    port: 0,
    stateful: false,
  });
  const echo = await serveEchoHttp();
  const lines: string[] = [];
  try {
    const gov = `${listening.url}/governance`;
    const setup = (tool: string, args: unknown) =>
      callOnce({ label: tool, url: gov, token: system, tool, args: () => args });
    await setup('create_project', { project_id: 'bench', name: 'Bench', idempotency_key: 'b1' });
    await setup('register_actor', {
      project_id: 'bench',
      actor_id: 'olivia',
      role: 'PO',
      idempotency_key: 'b2',
    });
    let n = 0;
    const targets: Target[] = [
      { label: 'echo (SDK)', url: echo.url, tool: 'echo', args: () => ({ text: 'hello' }) },
      {
        label: 'get_project, governance alone',
        url: gov,
        token: po,
        tool: 'get_project',
        args: () => ({ project_id: 'bench' }),
      },
      {
        label: `get_project, every surface (${wide.map((s) => s.name).join('+')})`,
        url: listening.url,
        token: po,
        tool: 'get_project',
        args: () => ({ project_id: 'bench' }),
      },
      {
        label: 'record_decision (durable)',
        url: gov,
        token: po,
        tool: 'record_decision',
        args: () => ({
          project_id: 'bench',
          kind: 'technical',
          title: `decision ${++n}`,
          rationale: 'bench',
          idempotency_key: `d${n}`,
        }),
      },
    ];
    const figures = new Map<string, number[]>();
    for (const t of targets) await rate(t, 1); // warm-up
    for (let round = 0; round < ROUNDS; round++)
      for (const clients of [1, 32])
        for (const t of targets) {
          const key = `${t.label}|${clients}`;
          figures.set(key, [...(figures.get(key) ?? []), await rate(t, clients)]);
        }
    const at = (label: string, clients: number) => median(figures.get(`${label}|${clients}`)!);
    lines.push(
      `| tool call over HTTP | 1 client, calls/s | % of echo | 32 clients, calls/s | % of echo |`,
      '| --- | --- | --- | --- | --- |',
    );
    for (const t of targets) {
      const [one, many] = [at(t.label, 1), at(t.label, 32)];
      const [e1, e32] = [at(targets[0]!.label, 1), at(targets[0]!.label, 32)];
      lines.push(
        `| ${t.label} | ${fmt(one)} | ${pct(one, e1)} | ${fmt(many)} | ${pct(many, e32)} |`,
      );
    }

    lines.push('', '| surface | tools/list bytes |', '| --- | --- |');
    for (const s of all)
      lines.push(`| ${s.name} | ${fmt(await listSize(`${listening.url}/${s.name}`, system))} |`);
    lines.push(
      `| /mcp (${wide.map((s) => s.name).join('+')}) | ${fmt(await listSize(listening.url, system))} |`,
    );
  } finally {
    await echo.close();
    await listening.close();
    await app.close();
  }

  // stdio: a fresh data dir served by `intentlog mcp` (dist), and the SDK's echo over stdio
  const main = join(process.cwd(), 'dist/cli/main.js');
  const echoJs = new URL('./mcp-echo.js', import.meta.url).pathname;
  // both served at once and measured in alternating rounds, as over HTTP: a load that drifts
  // during the run then weighs on both
  const servers = [
    await stdioClient(process.execPath, [echoJs, '--stdio'], 'echo', { text: 'hi' }),
    await stdioClient(
      process.execPath,
      [main, 'mcp', '--data-dir', dataDir, '--surface', 'governance'],
      'get_project',
      { project_id: 'bench' },
    ),
  ];
  const rounds: [number[], number[]] = [[], []];
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, server] of servers.entries()) rounds[i as 0 | 1].push(await server.rate());
  for (const server of servers) await server.close();
  const [stdioEcho, stdioOurs] = [median(rounds[0]), median(rounds[1])];
  lines.push(
    '',
    `| sequential calls over stdio (median of ${ROUNDS} rounds) | calls/s | % of echo |`,
    '| --- | --- | --- |',
    `| echo (SDK) | ${fmt(stdioEcho)} | 100% |`,
    `| get_project (governance) | ${fmt(stdioOurs)} | ${pct(stdioOurs, stdioEcho)} |`,
  );
  await rm(dataDir, { recursive: true, force: true });
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `\n<!-- npm run bench:mcp: ${SECONDS}s per figure, median of ${ROUNDS} rounds, ` +
      `${cpus().length} cores, load ${load} -->\n${lines.join('\n')}`,
  );
};

await main();
