import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cliIn, withDataDir } from '../cli/cli-harness.js';
import { startServe } from '../e2e/harness.js';
import { installClient, type ClientName, type Installed } from '../support/clients.js';
import { fromBanner, fromMarkdown, type Found } from './extract.js';
import { runFound, type Target } from './run-found.js';

// the build (test/run.mjs runs it first) made dist/ and the plugin the commands reach
const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const DOCS = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const clients = {} as Record<ClientName, Installed>;

/** Serves `dataDir` as the docs or the banner assume, and runs `found` against it. */
const check = async (t: TestContext, found: (banner: string) => Found[], requireAuth: boolean) =>
  withDataDir(async (dataDir) => {
    const serving = await startServe(dataDir, requireAuth ? ['--require-auth'] : []);
    try {
      const token = (await cliIn(dataDir, ['token', 'create', '--system'])).stdout.trim();
      const target: Target = { root, url: serving.url, token, dataDir, requireAuth, clients };
      const items = found(serving.banner);
      assert.ok(items.length > 0, 'found commands to run');
      const result = await runFound(items, target);
      for (const reason of result.skipped) t.diagnostic(`not run: ${reason}`);
      t.diagnostic(`${result.ran} run, ${result.person} need a person (flags checked)`);
      assert.deepEqual(result.problems, []);
    } finally {
      await serving.stop();
    }
  });

describe('every client command of README.md, docs/ and the serve banner runs as written', () => {
  before(async () => {
    const names: ClientName[] = ['claude', 'codex', 'inspector'];
    const installed = await Promise.all(names.map((name) => installClient(name)));
    names.forEach((name, i) => (clients[name] = installed[i]!));
  });

  it('README.md and docs/', (t) =>
    check(
      t,
      () => DOCS.flatMap((file) => fromMarkdown(file, readFileSync(join(root, file), 'utf8'))),
      false,
    ));

  it('the banner of serve', (t) => check(t, (banner) => fromBanner('default', banner), false));

  // the stdio lines are the same in both modes: only what reaches the URL is run again
  it('the banner of serve --require-auth', (t) =>
    check(
      t,
      (banner) => {
        const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(banner)![0];
        return fromBanner('require-auth', banner).filter((f) =>
          (f.kind === 'command' ? f.line : f.text).includes(url),
        );
      },
      true,
    ));
});
