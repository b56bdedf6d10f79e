import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/mcp/serve.js';
import { startServer, type Server } from '../governance/serve-harness.js';
import { initializeBody, JSON_HEADERS } from '../mcp/http-harness.js';

/**
 * Issue 28, against a real `intentlog serve`: an 8 MiB body from a fetch client got EPIPE rather than the 413: the server closed
 * the connection while the client was still sending. The server now answers 413 at once, reads
 * and drops the rest of the body, and closes only after it; the client reads its answer.
 */
const MiB = 1024 * 1024;
const EIGHT_MIB = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${'x'.repeat(8 * MiB)}"}}`;

/** The same body as a stream of 64 KiB chunks: no Content-Length, chunked transfer. */
const streamed = (text: string): ReadableStream<Uint8Array> => {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, (at += 64 * 1024)));
    },
  });
};

const tooLarge = async (response: Response) => {
  assert.equal(response.status, 413);
  const body = (await response.json()) as { error: { code: number; message: string } };
  assert.match(body.error.message, /request body over \d+ bytes/);
};

/** A fetch whose failure (EPIPE, a reset) is an answer too: its code. */
const status = async (url: string, init: RequestInit): Promise<number | string> => {
  try {
    const response = await fetch(url, { method: 'POST', headers: JSON_HEADERS, ...init });
    if (response.status === 413) await tooLarge(response);
    return response.status;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? String(error);
  }
};

describe('a body over the limit from a fetch client (issue 28)', () => {
  let dir: string;
  let server: Server;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'intentlog-body-'));
    server = await startServer(dir, { args: ['--surface', 'governance,system'] });
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('8 MiB with Content-Length, on every route: 413, read by the client, and the server goes on', async () => {
    assert.ok(EIGHT_MIB.length > DEFAULT_MAX_BODY_BYTES);
    const origin = new URL(server.url).origin;
    const seen: Record<string, number> = {};
    for (const path of ['/mcp', '/mcp/governance', '/oauth/register', '/audit'])
      for (let i = 0; i < 6; i++) {
        const key = `${path} ${await status(origin + path, { body: EIGHT_MIB })}`;
        seen[key] = (seen[key] ?? 0) + 1;
      }
    assert.deepEqual(
      Object.keys(seen).filter((k) => !k.endsWith(' 413')),
      [],
      JSON.stringify(seen),
    );
    assert.equal(
      await status(server.url, { body: JSON.stringify(initializeBody('2025-06-18')) }),
      200,
    );
  });

  it('8 MiB streamed without Content-Length: 413 as well', async () => {
    for (let i = 0; i < 3; i++)
      assert.equal(
        await status(server.url, { body: streamed(EIGHT_MIB), duplex: 'half' } as RequestInit),
        413,
      );
  });

  it('a body within the limit, streamed, is served', async () => {
    const body = streamed(JSON.stringify(initializeBody('2025-06-18')));
    assert.equal(await status(server.url, { body, duplex: 'half' } as RequestInit), 200);
  });
});
