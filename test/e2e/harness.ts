import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { intentlogArgs } from '../support/intentlog-bin.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
/** How a test runs `intentlog <args>`: the real CLI, from the repository root. */
export const intentlog = (args: string[]): { command: string; args: string[] } => ({
  command: process.execPath,
  args: intentlogArgs(args),
});

const cleanEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  ...getDefaultEnvironment(),
  INTENTLOG_HOME: '',
  INTENTLOG_STORE: '',
  INTENTLOG_ACTOR: '',
  INTENTLOG_SURFACE: '',
  INTENTLOG_ROOT: '',
  ...extra,
});

export type StdioOptions = { version?: string; args?: string[]; env?: Record<string, string> };

/** A real MCP client that starts `intentlog mcp --data-dir <dir>` the way Claude Code does. */
export const stdioClient = async (dataDir: string, options: StdioOptions = {}) => {
  const run = intentlog(['mcp', '--data-dir', dataDir, ...(options.args ?? [])]);
  const transport = new StdioClientTransport({
    ...run,
    cwd: root,
    env: cleanEnv(options.env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client(
    { name: 'e2e', version: '1' },
    options.version ? { supportedProtocolVersions: [options.version] } : {},
  );
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
};

/** structuredContent.result of a successful call, failing loudly on an error envelope. */
export const resultOf = async (
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
) => {
  const answer = await client.callTool({ name, arguments: args });
  const envelope = answer.structuredContent as { ok: boolean; result?: Record<string, unknown> };
  if (!envelope.ok) throw new Error(`${name} failed: ${JSON.stringify(envelope)}`);
  return envelope.result!;
};

export type Serving = {
  url: string;
  banner: string;
  proc: ChildProcess;
  stderr: () => string;
  /** sends the signal and resolves with the exit code */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/** Where serve runs: the repository root unless `cwd` (e.g. a linked project) says otherwise. */
export type ServeOptions = { cwd?: string; env?: Record<string, string> };

/** Starts `intentlog serve --port 0 --data-dir <dir>` and waits for the banner naming its URL. */
export const startServe = (
  dataDir: string,
  args: string[] = [],
  options: ServeOptions = {},
): Promise<Serving> =>
  new Promise((resolve, reject) => {
    const run = intentlog(['serve', '--port', '0', '--data-dir', dataDir, ...args]);
    const proc = spawn(run.command, run.args, {
      cwd: options.cwd ?? root,
      env: cleanEnv(options.env),
      stdio: 'pipe',
    });
    let out = '';
    let err = '';
    const exit = new Promise<number | null>((done) => proc.on('close', (code) => done(code)));
    proc.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    proc.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(out)?.[0];
      // the banner is written in one piece; its last line names docs/clients.md
      if (url && out.includes('docs/clients.md'))
        resolve({
          url,
          banner: out,
          proc,
          stderr: () => err,
          stop: (signal = 'SIGTERM') => (proc.kill(signal), exit),
        });
    });
    void exit.then((code) =>
      reject(new Error(`serve exited (${code}) before listening:\n${out}\n${err}`)),
    );
  });
