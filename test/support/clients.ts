import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The MCP hosts the docs name, from npm at the versions docs/clients.md says were tested. Not
 * devDependencies: Claude Code's license is not an open one, and `npm ci` should not fetch the
 * clients' 700 MB for every install. Each is installed once into .tmp/clients/ (git ignores
 * .tmp/) and kept; npm's own cache makes a fresh checkout's install quick.
 */
export const CLIENTS = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude' },
  codex: { pkg: '@openai/codex', version: '0.171.0', bin: 'codex' },
  inspector: { pkg: '@modelcontextprotocol/inspector', version: '2.12.0', bin: 'mcp-inspector' },
} as const;
export type ClientName = keyof typeof CLIENTS;

/** A client's bin, or why it could not be installed (the test then skips, saying so). */
export type Installed = { bin: string } | { skip: string };

const root = fileURLToPath(new URL('../..', import.meta.url));
/** An install that has not finished by then is given up: the suite must not wait on npm. */
const INSTALL_TIMEOUT_MS = 4 * 60_000;

const run = (command: string, args: string[], cwd: string, timeout: number) =>
  new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(command, args, { cwd, timeout, killSignal: 'SIGKILL' });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
    child.on('error', (error) => resolve({ code: null, out: error.message }));
  });

/**
 * Installs `name` at its pinned version, unless it is there already. Two test files may ask at
 * once: each installs into a directory of its own and renames it into place, the first wins.
 */
export const installClient = async (name: ClientName): Promise<Installed> => {
  const { pkg, version, bin } = CLIENTS[name];
  const dir = join(root, '.tmp/clients', `${pkg.replace(/^@/, '').replace('/', '+')}@${version}`);
  const path = (at: string) => join(at, 'node_modules/.bin', bin);
  if (existsSync(path(dir))) return { bin: path(dir) };
  const staging = `${dir}.${process.pid}`;
  mkdirSync(staging, { recursive: true });
  const spec = `${pkg}@${version}`;
  const npm = await run(
    'npm',
    [
      'install',
      '--prefix',
      staging,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      spec,
    ],
    staging,
    INSTALL_TIMEOUT_MS,
  );
  if (npm.code !== 0 || !existsSync(path(staging))) {
    rmSync(staging, { recursive: true, force: true });
    const reason =
      npm.code === null
        ? `no answer within ${INSTALL_TIMEOUT_MS / 1000} s`
        : (npm.out.split('\n').find((l) => l.startsWith('npm error')) ?? `exit ${npm.code}`);
    return { skip: `${spec} could not be installed: ${reason}` };
  }
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another process installed it first
  }
  return { bin: path(dir) };
};
