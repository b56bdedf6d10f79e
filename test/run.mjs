#!/usr/bin/env node
// Runs every test file under test/ with node:test through tsx.
// PostgreSQL tests (*.pg.test.ts) get a database of their own for this run. Without a reachable
// server they are skipped, and this says which; with CI=true they are mandatory.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
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

// Files named *.long.test.ts (a fresh clone's `npm ci`, the real MCP hosts from npm) take longer
// than the 3 minutes any other file is allowed: they run in a second process beside the first,
// with 20 minutes each, so they neither fail at 3 minutes nor add their time to the run's. Both
// write whole lines; the run ends with one line that counts both.
const counts = { pass: 0, fail: 0, skipped: 0 };
const nodeTest = (files, timeoutMs) =>
  new Promise((resolve) => {
    if (files.length === 0) return resolve(0);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--test',
        '--test-reporter=spec',
        '--test-concurrency=2',
        `--test-timeout=${timeoutMs}`,
        ...files,
      ],
      { stdio: ['inherit', 'pipe', 'inherit'], env, cwd: root },
    );
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      for (const line of lines) {
        const count = /^ℹ (pass|fail|skipped) (\d+)$/.exec(line);
        if (count) counts[count[1]] += Number(count[2]);
      }
      if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
    });
    // a test process spinning on its event loop never reaches its own timeout: stop the run
    const stop = setTimeout(() => {
      console.error('the test run was stopped: it ran for 25 minutes');
      child.kill('SIGKILL');
    }, 25 * 60_000);
    child.on('close', (code) => {
      clearTimeout(stop);
      if (partial) process.stdout.write(`${partial}\n`);
      resolve(code ?? 1);
    });
  });
const long = run.filter((f) => f.endsWith('.long.test.ts'));
const codes = await Promise.all([
  nodeTest(
    run.filter((f) => !long.includes(f)),
    180_000,
  ),
  nodeTest(long, 20 * 60_000),
]);
console.log(`\ntests: ${counts.pass} passed, ${counts.fail} failed, ${counts.skipped} skipped`);

if (testDb) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${testDb} WITH (FORCE)`).catch(() => {});
  await client.end();
}
process.exit(codes.find((code) => code !== 0) ?? 0);
