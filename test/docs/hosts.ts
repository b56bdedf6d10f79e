import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';

export type Run = { code: number | null; stdout: string; stderr: string };

/** `bash -c` with the block's assignments first, as a person pastes the lines into a shell. */
export const bash = (
  script: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeout?: number },
): Promise<Run> =>
  new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], {
      cwd: options.cwd,
      env: options.env,
      timeout: options.timeout ?? 90_000,
      killSignal: 'SIGKILL',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => {});
    child.stdin.end();
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

/** A throwaway home for the hosts, with a project that is a git repository (as most are). */
export type Home = { dir: string; project: string; env: NodeJS.ProcessEnv };

export const newHome = async (bins: readonly string[], extra: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-home-'));
  const project = join(dir, 'project');
  mkdirSync(project);
  mkdirSync(join(dir, '.codex'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...extra,
    HOME: dir,
    CLAUDE_CONFIG_DIR: join(dir, '.claude'),
    CODEX_HOME: join(dir, '.codex'),
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // a server's start-up and first lists on a loaded machine (Claude Code's default: 30 s)
    MCP_TIMEOUT: '120000',
    PATH: [...bins.map((b) => dirname(b)), process.env.PATH].join(':'),
  };
  await bash('git init -q', { cwd: project, env });
  return { dir, project, env } satisfies Home;
};

/** The words of a command line as bash splits and expands them. */
export const argvOf = async (line: string, home: Home): Promise<string[]> => {
  const run = await bash(`words() { printf '%s\\0' "$@"; }; words ${line}`, {
    cwd: home.project,
    env: home.env,
  });
  return run.stdout.split('\0').slice(0, -1);
};

/** The server a `claude mcp add …` line adds (its first word after the options). */
export const claudeAdded = (argv: readonly string[]): string | undefined => {
  const add = argv.indexOf('add');
  if (argv[1] !== 'mcp' || add !== 2) return undefined;
  const valued = new Set(['-t', '--transport', '-s', '--scope', '-H', '--header', '-e', '--env']);
  for (let i = add + 1; i < argv.length; i++) {
    if (valued.has(argv[i]!)) i++;
    else if (!argv[i]!.startsWith('-')) return argv[i];
  }
  return undefined;
};

/** `claude mcp list`: each server's status word (Connected, Needs authentication, Pending…). */
export const claudeList = async (home: Home): Promise<Map<string, string>> => {
  const run = await bash('claude mcp list', { cwd: home.project, env: home.env, timeout: 120_000 });
  const found = new Map<string, string>();
  for (const line of run.stdout.split('\n')) {
    const m =
      /^(\S+): .* - [^\w]*\s*(Connected|Needs authentication|Pending approval|Failed.*)/.exec(line);
    if (m) found.set(m[1]!, m[2]!);
  }
  return found;
};

type CodexServer = {
  name: string;
  transport:
    | { type: 'streamable_http'; url: string; bearer_token_env_var: string | null }
    | { type: 'stdio'; command: string; args: string[] };
};

/** What Codex saved (`codex mcp list --json`). */
export const codexServers = async (home: Home): Promise<CodexServer[]> => {
  const run = await bash('codex mcp list --json 2>/dev/null', { cwd: home.project, env: home.env });
  return JSON.parse(run.stdout) as CodexServer[];
};

/**
 * Codex connects only when a model session starts; the test connects as it would, from what
 * Codex saved: over HTTP with the bearer token from the variable it names, or by starting the
 * stdio command. Resolves with the tools' names.
 */
export const reachAsCodex = async (server: CodexServer, home: Home): Promise<string[]> => {
  const t = server.transport;
  if (t.type === 'streamable_http') {
    const token = t.bearer_token_env_var ? home.env[t.bearer_token_env_var] : undefined;
    const answer = await fetch(t.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'whoami', arguments: {} },
      }),
    });
    const body = (await answer.json()) as { result?: { isError?: boolean } };
    if (answer.status !== 200 || !body.result || body.result.isError)
      throw new Error(`${t.url}: ${answer.status} ${JSON.stringify(body)}`);
    return ['whoami'];
  }
  const env = Object.fromEntries(
    Object.entries({ ...getDefaultEnvironment(), INTENTLOG_HOME: home.env.INTENTLOG_HOME ?? '' }),
  );
  const transport = new StdioClientTransport({
    command: t.command,
    args: t.args,
    cwd: home.project,
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'as-codex', version: '1' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
};
