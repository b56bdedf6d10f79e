/**
 * The product as a client sees it, for bench/history.ts: `intentlog mcp --surface <s>` over
 * stdio (the built bin, as the README starts it), with the server's CPU read from /proc, a
 * restart, and the CLI's `projections rebuild` and `log` under `/usr/bin/time -v`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';

export type Envelope = {
  ok: boolean;
  result?: Record<string, unknown>;
  error?: unknown;
  [field: string]: unknown;
};

export type Server = {
  pid: number;
  /** the tool's envelope; throws on a refusal unless `tolerate` */
  call(name: string, args: Record<string, unknown>, tolerate?: boolean): Promise<Envelope>;
  /** user + system CPU of the server process so far, ms */
  cpuMs(): number;
  close(): Promise<void>;
  stderr(): string;
};

export type ServerOptions = {
  bin: string;
  dataDir: string;
  surface: string;
  /** client roots offered (intent finds its project from them) */
  roots?: string[];
  env?: Record<string, string>;
  actor?: string;
};

const TICK_MS = 1000 / 100; // USER_HZ: /proc's clock ticks are 1/100 s on Linux

/** utime + stime of a process, ms (fields 14 and 15 of /proc/<pid>/stat) */
export const processCpuMs = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
};

export const startServer = async (options: ServerOptions): Promise<Server> => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      options.bin,
      'mcp',
      '--data-dir',
      options.dataDir,
      '--surface',
      options.surface,
      ...(options.actor ? ['--actor', options.actor] : []),
    ],
    env: {
      ...getDefaultEnvironment(),
      INTENTLOG_HOME: '',
      INTENTLOG_STORE: '',
      INTENTLOG_ACTOR: '',
      ...options.env,
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const roots = options.roots;
  const client = new Client(
    { name: 'history-bench', version: '1' },
    roots ? { capabilities: { roots: {} } } : {},
  );
  if (roots)
    client.setRequestHandler('roots/list', async () => ({
      roots: roots.map((r) => ({ uri: pathToFileURL(r).href })),
    }));
  await client.connect(transport);
  const pid = transport.pid!;
  return {
    pid,
    async call(name, args, tolerate = false) {
      const answer = await client.callTool({ name, arguments: args }, { timeout: 600_000 });
      const envelope = answer.structuredContent as Envelope;
      if (!envelope?.ok && !tolerate)
        throw new Error(`${name} refused: ${JSON.stringify(envelope ?? answer).slice(0, 800)}`);
      return envelope;
    },
    cpuMs: () => processCpuMs(pid),
    async close() {
      await client.close();
      // the next server on this data dir must find the store's lock free: wait for the exit
      while (existsSync(`/proc/${pid}`)) await new Promise((ok) => setTimeout(ok, 20));
    },
    stderr: () => stderr,
  };
};

/** Wall time of one call, ms. */
export const timed = async (f: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};

export type TimeV = { seconds: number; maxRssMb: number; exit: number };

/** `/usr/bin/time -v node <bin> <args>`: elapsed wall seconds and maximum resident set size. */
export const timeV = (bin: string, args: string[]): TimeV => {
  const run = spawnSync('/usr/bin/time', ['-v', process.execPath, bin, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const field = (name: string) => new RegExp(`${name}: (.+)`).exec(run.stderr)?.[1]?.trim() ?? '';
  const clock = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)').split(':').map(Number);
  const seconds = clock.reduce((s, part) => s * 60 + part, 0);
  return {
    seconds,
    maxRssMb: Number(field('Maximum resident set size \\(kbytes\\)')) / 1024,
    exit: run.status ?? -1,
  };
};
