#!/usr/bin/env node
// Runs every test file under test/ with node:test through tsx.
// PostgreSQL tests (*.pg.test.ts) get a database of their own for this run. Without a reachable
// server they are skipped, and this says which; with CI=true they are mandatory.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const root = new URL('..', import.meta.url).pathname;
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : walk(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });

const filters = process.argv.slice(2);
const files = walk(join(root, 'test'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
const pgFiles = files.filter((f) => f.endsWith('.pg.test.ts'));
const env = { ...process.env };

const adminUrl =
  process.env.INTENTLOG_TEST_PG_ADMIN ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let testDb;
const reachable = async () => {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    testDb = `intentlog_test_${process.pid}_${Date.now()}`;
    await client.query(`CREATE DATABASE ${testDb}`);
    const url = new URL(adminUrl);
    url.pathname = `/${testDb}`;
    env.INTENTLOG_TEST_PG = url.toString();
    return true;
  } catch (error) {
    console.error(`PostgreSQL at ${adminUrl} is not reachable: ${error.message}`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
};

let run = files;
if (pgFiles.length > 0 && !(await reachable())) {
  if (process.env.CI === 'true') {
    console.error('CI=true: the PostgreSQL tests are mandatory, and PostgreSQL is not reachable.');
    process.exit(1);
  }
  console.log('SKIPPED (no PostgreSQL server reachable):');
  for (const f of pgFiles) console.log(`  - ${relative(root, f)}`);
  run = files.filter((f) => !pgFiles.includes(f));
}

if (run.length === 0) {
  console.error(`no test file matches ${filters.join(' ')}`);
  process.exit(1);
}

// CLI tests start the real bin: build it once here (package.json `build`: tsc, the table `mcp`
// answers initialize from, the bundle) rather than paying tsx in every process.
if (!process.env.INTENTLOG_TEST_BIN) {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit', cwd: root });
  if (build.status !== 0) process.exit(build.status ?? 1);
  env.INTENTLOG_TEST_BIN = join(root, 'dist/cli/main.js');
}

const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-concurrency=2',
    '--test-timeout=180000',
    ...run,
  ],
  // a test process spinning on its event loop never reaches its own timeout: stop the run
  { stdio: 'inherit', env, cwd: root, timeout: 25 * 60_000, killSignal: 'SIGKILL' },
);
if (result.error) console.error(`the test run was stopped: ${result.error.message}`);

if (testDb) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${testDb} WITH (FORCE)`).catch(() => {});
  await client.end();
}
process.exit(result.status ?? 1);
