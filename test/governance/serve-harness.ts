import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { openIntentlog } from '../../src/modules/index.js';
import type { Principal } from '../../src/commands/principal.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A real `intentlog serve` process over a data dir: its URL, and how to stop it. */
export type Server = {
  url: string;
  proc: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
};

/** The structuredContent of a tool call: the one result envelope. */
export type Envelope = {
  ok: boolean;
  operation: string;
  project_id: string | null;
  replayed?: boolean;
  position?: number;
  result?: Record<string, unknown> & { [k: string]: unknown };
  error?: { code: string; message: string; details: Record<string, unknown> };
};

/**
 * Starts `intentlog serve --surface governance` (or `options.args`' surfaces and flags) on a free
 * port and waits for its URL.
 */
export const startServer = (
  dataDir: string,
  options: { args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<Server> =>
  new Promise((resolve, reject) => {
    const args = ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0'];
    const proc = spawn(
      process.execPath,
      [...args, ...(options.args ?? ['--surface', 'governance']), '--data-dir', dataDir],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, INTENTLOG_STORE: '', ...options.env },
      },
    );
    let out = '';
    let err = '';
    const exited = new Promise<void>((done) => proc.on('close', () => done()));
    proc.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(out)?.[0];
      if (url)
        resolve({
          url,
          proc,
          stderr: () => err,
          async stop() {
            proc.kill('SIGTERM');
            await exited;
          },
        });
    });
    proc.on('close', (code) =>
      reject(new Error(`serve exited (${code}) before listening: ${err}`)),
    );
  });

/** A fresh data dir with one token per principal, issued before any server holds the dir. */
export const withDataDir = async <T>(
  principals: Record<string, Principal>,
  body: (dir: string, tokens: Record<string, string>) => Promise<T>,
): Promise<T> => {
  const base = await mkdtemp(join(tmpdir(), 'intentlog-gov-'));
  const dir = join(base, 'data');
  try {
    // LevelDB in the dir, whatever INTENTLOG_STORE says: the servers must find these tokens
    const app = await openIntentlog({ dataDir: dir, store: 'level' });
    const tokens: Record<string, string> = {};
    try {
      for (const [name, principal] of Object.entries(principals)) {
        const issued = await app.tokens.issue(principal, name, { kind: 'system' });
        tokens[name] = issued.token;
      }
    } finally {
      await app.close();
    }
    return await body(dir, tokens);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
};

/** A real MCP client over Streamable HTTP with a bearer token. */
export const connectAs = async (url: string, token: string): Promise<Client> => {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'governance-e2e', version: '1' });
  await client.connect(transport);
  return client;
};

/** Calls a tool and returns its envelope; `isError` must agree with `ok`. */
export const call = async (
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Envelope> => {
  const result = await client.callTool({ name, arguments: args });
  const envelope = result.structuredContent as Envelope;
  if (Boolean(result.isError) === envelope.ok)
    throw new Error(`${name}: isError ${String(result.isError)} but ok ${envelope.ok}`);
  return envelope;
};

/**
 * `count` servers over one fresh data dir (the first holds it, the others follow it) and a
 * client per principal on each, shared by a suite: `start` in `before`, `stop` in `after`.
 */
export const sharedServers = (count: number, principals: Record<string, Principal>) => {
  const clients: Record<string, Client>[] = [];
  let release = () => {};
  let finished: Promise<void> = Promise.resolve();
  const run = (dir: string, tokens: Record<string, string>, ready: () => void) => async () => {
    const servers: Server[] = [];
    try {
      for (let i = 0; i < count; i++) servers.push(await startServer(dir));
      for (const server of servers) {
        const byName: Record<string, Client> = {};
        for (const name of Object.keys(principals))
          byName[name] = await connectAs(server.url, tokens[name]!);
        clients.push(byName);
      }
      ready();
      await new Promise<void>((resolve) => (release = resolve));
    } finally {
      for (const byName of clients) for (const c of Object.values(byName)) await c.close();
      for (const server of servers) await server.stop();
    }
  };
  return {
    /** per server, the clients by principal name */
    clients,
    start: () =>
      new Promise<void>((ready, fail) => {
        finished = withDataDir(principals, (dir, tokens) => run(dir, tokens, ready)()).catch(
          (error: unknown) => fail(error),
        );
      }),
    async stop() {
      release();
      await finished;
    },
  };
};
