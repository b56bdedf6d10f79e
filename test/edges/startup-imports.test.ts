import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const reporter = new URL('./loaded-modules.mjs', import.meta.url).pathname;
// from source, not the built bin: the bundle (scripts/bundle.mjs) puts many modules in one chunk,
// so only the source shows which modules a command loads
const source = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'intentlog-imports-'));
});
after(() => rm(dir, { recursive: true, force: true }));

/**
 * The modules `intentlog <args>` loaded, one path or URL a line; `input` goes to its stdin.
 * From the source unless `bin` names a built one.
 */
const loadedBy = async (args: string[], input = '', bin?: string): Promise<string[]> => {
  const file = join(dir, `loaded-${args[0]}-${bin ? 'bin' : 'source'}.txt`);
  const child = spawn(
    process.execPath,
    ['--import', reporter, ...(bin ? [bin] : ['--import', 'tsx', source]), ...args],
    {
      env: { ...process.env, LOADED_MODULES_FILE: file, INTENTLOG_STORE: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stdin.end(input);
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 0, `intentlog ${args.join(' ')}`);
  assert.notEqual(stdout, '', 'it answered');
  return (await readFile(file, 'utf8')).split('\n').filter(Boolean);
};

/** Lines of JSON-RPC as a client writes them to `mcp`'s stdin. */
const lines = (...messages: object[]) =>
  messages.map((m) => `${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`).join('');
const initialize = {
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  },
};

const none = (loaded: string[], pattern: RegExp, what: string) =>
  assert.deepEqual(
    loaded.filter((m) => pattern.test(m)),
    [],
    `${what} should not be loaded`,
  );

describe('start-up: a command loads only what it uses', () => {
  it('token create loads the log and the writer path, not MCP, the web view or PostgreSQL', async () => {
    const loaded = await loadedBy(['token', 'create', '--system', '--data-dir', join(dir, 'a')]);
    assert.ok(
      loaded.some((m) => /src\/events\/|dist\/events\//.test(m)),
      'the log is loaded',
    );
    none(loaded, /@modelcontextprotocol|\/(src|dist)\/mcp\//, 'the MCP server');
    none(loaded, /\/(src|dist)\/web\/|node_modules\/(hono|@hono)\//, 'the web view');
    none(loaded, /node_modules\/(pg|prom-client|pino|@dagrejs|minisearch)\//, 'serve’s libraries');
    // rxjs's CommonJS index requires every operator; the product takes what it uses by file
    none(loaded, /node_modules\/rxjs\/dist\/cjs\/(index|operators\/index)\.js$/, 'rxjs’s index');
  });

  it('mcp loads the surfaces and the kernel, not the web view or the HTTP stack', async () => {
    const loaded = await loadedBy(['mcp', '--data-dir', join(dir, 'b')], lines(initialize));
    assert.ok(
      loaded.some((m) => /\/mcp\/governance\/index\./.test(m)),
      'its surfaces',
    );
    none(loaded, /\/(src|dist)\/web\/|node_modules\/(hono|@hono)\//, 'the web view');
    none(loaded, /\/(src|dist)\/mcp\/(http|oauth)\//, 'the HTTP transport and sign-in');
    none(loaded, /node_modules\/(pg|prom-client|@dagrejs)\//, 'serve’s libraries');
  });

  // the ES module loader spends about 1 ms a file: split, the registry's lazy parts came to 86
  // files of dist/cli (scripts/bundle.mjs bundles mcp-main.ts whole)
  it('the built mcp loads its server from one file, beside the early answer', async (t) => {
    const bin = process.env.INTENTLOG_TEST_BIN;
    if (!bin) return t.skip('needs the built bin: run through test/run.mjs (npm test)');
    const loaded = await loadedBy(
      ['mcp', '--data-dir', join(dir, 'c')],
      lines(initialize, { method: 'notifications/initialized' }, { id: 2, method: 'tools/list' }),
      bin,
    );
    const built = [...new Set(loaded.filter((m) => m.includes('/dist/cli/')))];
    assert.ok(
      built.some((m) => m.endsWith('/dist/cli/mcp-main.js')),
      'the server comes from mcp-main.js',
    );
    assert.ok(built.length <= 8, `dist/cli files loaded: ${built.length}\n${built.join('\n')}`);
  });
});
