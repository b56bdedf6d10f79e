import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { root, startServe, type Serving } from './harness.js';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.13: the last that
 * runs on Node 20), its server scenarios that need no fixture tools, against a real
 * `intentlog serve`. The suite's client is the v1 SDK, so this is also an interoperability test.
 */
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'prompts-list',
  'resources-list',
  'logging-set-level',
  'dns-rebinding-protection',
];

const CONFORMANCE = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

const run = (url: string, scenario: string, out: string) =>
  new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [CONFORMANCE, 'server', '--url', url, '--scenario', scenario, '-o', out],
      { cwd: root, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });

describe('MCP conformance suite against intentlog serve', () => {
  let dir: string;
  let serving: Serving;

  // one server for every scenario
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'intentlog-conformance-'));
    serving = await startServe(join(dir, 'data'));
  });

  after(async () => {
    await serving?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  for (const scenario of SCENARIOS)
    it(scenario, async () => {
      // the suite addresses the server as localhost (its DNS-rebinding scenario requires it)
      const url = serving.url.replace('127.0.0.1', 'localhost');
      const { code, output } = await run(url, scenario, join(dir, 'results'));
      assert.match(output, /Passed: (\d+)\/\1, 0 failed/, output);
      assert.equal(code, 0, output);
    });
});
