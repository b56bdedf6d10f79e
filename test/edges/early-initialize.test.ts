import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import pino from 'pino';
import type { App } from '../../src/app/app.js';
import { SYSTEM } from '../../src/commands/principal.js';
import {
  earlyAnswer,
  legacyInitialize,
  selectEarly,
  type EarlyTable,
} from '../../src/mcp/early-initialize.js';
import { earlyTable, fullServerAnswer } from '../../src/mcp/early-initialize-table.js';
import { serveOverStdio } from '../../src/mcp/stdio.js';
import { startEarlyStdio } from '../../src/mcp/stdio-early.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { servedSurfaces } from '../../src/modules/surfaces.js';
import { intentlogArgs } from '../support/intentlog-bin.js';

const initialize = (id: number | string, protocolVersion: string, extra = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: {
    protocolVersion,
    capabilities: {},
    clientInfo: { name: 'test', version: '1' },
    ...extra,
  },
});

/** Whether the full server starts with this `--surface` (it refuses what it cannot serve). */
const serves = (spec: string): boolean => {
  try {
    resolveSurfaces(servedSurfaces, spec);
    return true;
  } catch {
    return false;
  }
};

/** Every single surface at every tier, and every pair in both orders. */
const specs = (): string[] => {
  const singles = servedSurfaces.flatMap((s) => s.tiers.map((t) => `${s.name}:${t}`));
  const names = servedSurfaces.map((s) => s.name);
  const pairs = names.flatMap((a) => names.filter((b) => b !== a).map((b) => `${a},${b}`));
  return ['governance,system', ...singles, ...pairs, names.join(',')];
};

let table: EarlyTable;
before(async () => {
  table = await earlyTable(servedSurfaces);
});

describe('early initialize: the answer `mcp` gives before its surfaces load', () => {
  it('equals the full server’s for every protocol version a client may ask for', async () => {
    const chosen = selectEarly(table, table.defaultSpec);
    assert.ok(chosen);
    const selection = resolveSurfaces(servedSurfaces, table.defaultSpec);
    for (const version of [...SUPPORTED_PROTOCOL_VERSIONS, '2023-01-01', 'not-a-version'])
      assert.deepEqual(
        earlyAnswer(table, chosen, version),
        await fullServerAnswer(selection, version),
        version,
      );
  });

  it('equals the full server’s for every surface, tier and pair it serves, and refuses the rest', async () => {
    let served = 0;
    for (const spec of specs()) {
      const chosen = selectEarly(table, spec);
      if (!serves(spec)) {
        assert.equal(chosen, undefined, `${spec}: the full server refuses it`);
        continue;
      }
      served++;
      assert.ok(chosen, spec);
      const full = await fullServerAnswer(resolveSurfaces(servedSurfaces, spec), '2025-06-18');
      assert.deepEqual(earlyAnswer(table, chosen, '2025-06-18'), full, spec);
    }
    assert.ok(served > servedSurfaces.length, 'pairs were compared, not only single surfaces');
    for (const spec of ['', 'nope', 'governance:nope', 'governance,governance', 'system:all:x'])
      assert.equal(selectEarly(table, spec), undefined, spec);
  });

  it('answers only a 2025-era initialize: not another method, a claim in _meta, or junk', () => {
    const line = (m: unknown) => JSON.stringify(m);
    assert.deepEqual(legacyInitialize(line(initialize(7, '2025-06-18'))), {
      id: 7,
      protocolVersion: '2025-06-18',
    });
    assert.equal(legacyInitialize(line(initialize(7, '2025-06-18', { _meta: {} }))), undefined);
    assert.equal(
      legacyInitialize(line({ jsonrpc: '2.0', id: 1, method: 'tools/list' })),
      undefined,
    );
    assert.equal(legacyInitialize('{"jsonrpc":"2.0","id":1,"method":"initialize"'), undefined);
    const noClientVersion = initialize(1, '2025-06-18', { clientInfo: { name: 'x' } });
    assert.equal(legacyInitialize(line(noClientVersion)), undefined);
  });
});

/** Lines written to a stream, as parsed JSON, and a wait for one that matches. */
const lines = (stream: Readable) => {
  const seen: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  let text = '';
  stream.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n')) {
      seen.push(JSON.parse(text.slice(0, end)) as Record<string, unknown>);
      text = text.slice(end + 1);
      for (const wake of waiters.splice(0)) wake();
    }
  });
  const waitFor = async (match: (m: Record<string, unknown>) => boolean) => {
    while (!seen.some(match)) await new Promise<void>((wake) => waiters.push(wake));
    return seen.find(match)!;
  };
  return { seen, waitFor };
};

describe('early initialize: the hand-over to the full server', () => {
  it('answers initialize once, holds what follows, and the server answers it after', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = lines(stdout);
    const send = (m: unknown) => stdin.write(`${JSON.stringify(m)}\n`);
    send(initialize(1, '2025-06-18'));
    await startEarlyStdio({ table, stdin, stdout, spec: 'governance,system' }, 60_000);
    const early = await out.waitFor((m) => m.id === 1);
    const selection = resolveSurfaces(servedSurfaces, 'governance,system');
    assert.deepEqual(early.result, await fullServerAnswer(selection, '2025-06-18'));
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    assert.equal(out.seen.length, 1, 'nothing but initialize is answered before the hand-over');

    const connection = serveOverStdio({
      app: new Promise<App>(() => undefined),
      selection,
      principal: SYSTEM,
      log: pino({ enabled: false }),
      streams: { stdin, stdout },
    });
    const listed = await out.waitFor((m) => m.id === 2);
    const tools = (listed.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    assert.ok(tools.includes('whoami'), 'the full server answers the held tools/list');
    send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    await out.waitFor((m) => m.id === 3);
    assert.deepEqual(
      out.seen.map((m) => m.id),
      [1, 2, 3],
      'initialize is answered once: the full server’s own answer is not sent',
    );
    await connection.close();
  });
});

describe('early initialize: the built `intentlog mcp`', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'intentlog-early-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it(
    'has its table beside the module that reads it',
    { skip: !process.env.INTENTLOG_TEST_BIN },
    () => {
      const built = new URL(
        '../mcp/early-initialize.json',
        pathToFileURL(process.env.INTENTLOG_TEST_BIN!),
      );
      assert.ok(existsSync(built), `${fileURLToPath(built)}: npm run build writes it`);
    },
  );

  it('answers initialize as the full server does, once, and then serves', async () => {
    const child = spawn(
      process.execPath,
      intentlogArgs(['mcp', '--surface', 'intent,system', '--data-dir', join(dir, 'a')]),
      { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, INTENTLOG_SURFACE: '' } },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const out = lines(child.stdout);
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send(initialize('a', '2025-03-26'));
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 'b',
      method: 'tools/call',
      params: { name: 'whoami', arguments: {} },
    });
    const answered = await out.waitFor((m) => m.id === 'a');
    const called = await out.waitFor((m) => m.id === 'b');
    const exited = new Promise((resolve) => child.on('close', resolve));
    child.stdin.end();
    assert.equal(await exited, 0);
    const selection = resolveSurfaces(servedSurfaces, 'intent,system');
    assert.deepEqual(answered.result, await fullServerAnswer(selection, '2025-03-26'));
    assert.notEqual((called.result as { isError?: boolean }).isError, true, stderr);
    assert.deepEqual(
      out.seen.map((m) => m.id),
      ['a', 'b'],
    );
    assert.doesNotMatch(stderr, /answered early, differently/);
  });

  it('ends with the error when it cannot serve after answering early (stdin still open)', async () => {
    const child = spawn(
      process.execPath,
      intentlogArgs(['mcp', '--actor', 'not an id!', '--data-dir', join(dir, 'b')]),
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    child.stdin.write(`${JSON.stringify(initialize(1, '2025-06-18'))}\n`);
    // the client keeps stdin open: the process must end on its own, not wait on stdin
    const code = await new Promise((resolve) => child.on('close', resolve));
    child.stdin.destroy();
    assert.equal(code, 1);
    assert.match(stderr, /not an actor id/);
  });
});
