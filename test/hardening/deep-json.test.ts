import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import pino from 'pino';
import { SYSTEM } from '../../src/commands/principal.js';
import { MAX_JSON_DEPTH, scanJsonDepth } from '../../src/mcp/json-depth.js';
import { serveOverStdio } from '../../src/mcp/stdio.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { withApp } from '../mcp/harness.js';
import { post, withServer } from '../mcp/http-harness.js';
import { intentlogArgs } from '../support/intentlog-bin.js';

/**
 * Issue 28: `initialize` with capabilities nested 100,000 deep answered HTTP 500, and on stdio
 * the server answered nothing after it. A message nested deeper than MAX_JSON_DEPTH is refused
 * with JSON-RPC -32600 naming its id, on HTTP, on stdio and on the early `initialize` path, and
 * the server goes on serving.
 */
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const DEEP = nested(100_000);
// over HTTP without a token a body is at most 64 KiB (issue 40; larger: 413 before any parse):
// 10,000 levels, 60 KB, still reach the depth check
const DEEP_ANONYMOUS = nested(10_000);
const initializeText = (id: number | string, capabilities: string) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":${capabilities},"clientInfo":{"name":"t","version":"1"}}}`;

type Message = { id?: unknown; result?: unknown; error?: { code: number; message: string } };

/** The JSON lines a stream writes, and a wait for one. */
const lines = (stream: Readable) => {
  const seen: Message[] = [];
  let text = '';
  let wake = () => undefined as void;
  stream.setEncoding('utf8').on('data', (d: string) => {
    text += d;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n')) {
      seen.push(JSON.parse(text.slice(0, end)) as Message);
      text = text.slice(end + 1);
    }
    wake();
  });
  /** The answer to `id`; a server that stops answering fails the test, not its timeout. */
  const waitFor = async (id: unknown, ms = 20_000): Promise<Message> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = seen.find((m) => m.id === id);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no answer to ${JSON.stringify(id)} in ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };
  return { seen, waitFor };
};

const refusedAsTooDeep = (m: Message | undefined, what: string) => {
  assert.equal(m?.error?.code, -32600, `${what}: ${JSON.stringify(m).slice(0, 300)}`);
  assert.match(m!.error!.message, /nested deeper than 100/);
};

describe('JSON nested too deep (issue 28)', () => {
  it('the depth scan: exact at the limit, ids read from anywhere at the top level', () => {
    assert.equal(scanJsonDepth(nested(MAX_JSON_DEPTH)).tooDeep, false);
    assert.equal(scanJsonDepth(nested(MAX_JSON_DEPTH + 1)).tooDeep, true);
    assert.equal(scanJsonDepth('["{{{{[[[[", "\\"{{{"]').tooDeep, false, 'brackets in strings');
    const text = fc.string({ maxLength: 20 });
    const id = fc.oneof(fc.integer(), text);
    fc.assert(
      fc.property(id, fc.integer({ min: 0, max: 150 }), fc.boolean(), (i, depth, idFirst) => {
        // decoys: an id one level down, and id-like text in a string
        const params = `"params":{"id":"decoy","note":"\\"id\\":9,{[","x":${nested(depth)}}`;
        const head = `"jsonrpc":"2.0","id":${JSON.stringify(i)}`;
        const body = idFirst ? `{${head},${params}}` : `{${params},${head}}`;
        const scan = scanJsonDepth(body);
        assert.equal(scan.tooDeep, depth + 2 > MAX_JSON_DEPTH);
        assert.equal(scan.id, i);
      }),
    );
  });

  it('HTTP: 400 with -32600 and the request id, and the server goes on', () =>
    withServer({}, async ({ url }) => {
      const refused = await post(url, initializeText(7, DEEP_ANONYMOUS));
      assert.equal(refused.status, 400);
      const body = (await refused.json()) as Message;
      refusedAsTooDeep(body, 'initialize');
      assert.equal(body.id, 7);
      const call = `{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"echo","arguments":${DEEP_ANONYMOUS}}}`;
      assert.equal((await post(url, call)).status, 400);
      const fine = await post(url, initializeText(8, nested(MAX_JSON_DEPTH - 3)));
      assert.equal(fine.status, 200, 'within the limit');
      assert.equal(((await fine.json()) as Message).id, 8);
    }));

  it('stdio: the line is answered -32600 and the next ones are served, characters split across chunks kept whole', () =>
    withApp(async (app) => {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const out = lines(stdout);
      const connection = serveOverStdio({
        app,
        selection: resolveSurfaces(surfacesOf(modules), 'system'),
        principal: SYSTEM,
        log: pino({ enabled: false }),
        streams: { stdin, stdout },
      });
      try {
        stdin.write(
          `${initializeText(1, '{}')}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`,
        );
        await out.waitFor(1);
        // the deep lines in chunks, as a pipe delivers them: initialize again, and a tool call
        const call = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"whoami","arguments":${DEEP}}}`;
        const deep = `${initializeText(2, DEEP)}\n${call}\n`;
        for (let i = 0; i < deep.length; i += 65_536) stdin.write(deep.slice(i, i + 65_536));
        refusedAsTooDeep(await out.waitFor(2), 'initialize');
        refusedAsTooDeep(await out.waitFor(3), 'tools/call');
        // a name with characters of 2, 3 and 4 UTF-8 bytes, written a byte at a time
        const split = initializeText(4, '{}').replace('"t"', '"é€😀"');
        for (const byte of Buffer.from(`${split}\n`, 'utf8')) stdin.write(Buffer.from([byte]));
        assert.ok((await out.waitFor(4)).result, 'the split line is served');
        stdin.write('{"jsonrpc":"2.0","id":5,"method":"ping"}\n');
        assert.deepEqual((await out.waitFor(5)).result, {});
        assert.deepEqual(
          out.seen.map((m) => m.id),
          [1, 2, 3, 4, 5],
        );
      } finally {
        await connection.close();
      }
    }));

  it('the built `intentlog mcp`: a deep first initialize is refused (not answered early), then it serves', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'intentlog-deep-'));
    let cleanup = () => undefined as unknown;
    try {
      const child = spawn(process.execPath, intentlogArgs(['mcp', '--data-dir', dir]), {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, INTENTLOG_SURFACE: '' },
      });
      const out = lines(child.stdout);
      const exited = new Promise((resolve) => child.on('close', resolve));
      cleanup = () => child.kill();
      child.stdin.write(`${initializeText(1, DEEP)}\n`);
      refusedAsTooDeep(await out.waitFor(1), 'the first initialize');
      child.stdin.write(`${initializeText(2, '{}')}\n`);
      child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
      child.stdin.write('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
      assert.ok((await out.waitFor(2)).result);
      assert.deepEqual((await out.waitFor(3)).result, {});
      child.stdin.end();
      assert.equal(await exited, 0);
      assert.deepEqual(
        out.seen.map((m) => m.id),
        [1, 2, 3],
        'each answered once',
      );
    } finally {
      cleanup();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
