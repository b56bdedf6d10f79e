// What the server holds for clients it does not know (issue 40, point 9): 300 unauthenticated
// ~1 MiB chunked bodies held open grew the server by 304 MB, and nothing bounded connections.
// Now an anonymous body is at most 64 KiB, all anonymous bodies together hold at most a budget,
// and connections are counted; past either, 503 at once with Retry-After, nothing held.
import { strict as assert } from 'node:assert';
import { request, type ClientRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { ADMISSION_LIMITS, type AdmissionLimits } from '../../src/mcp/http/admission.js';
import { initializeBody, issueToken, post, withServer } from '../mcp/http-harness.js';

const KiB = 1024;
const limits = (over: Partial<AdmissionLimits>): AdmissionLimits => ({
  ...ADMISSION_LIMITS,
  ...over,
});

/** A chunked POST that sends `bytes` of its body and then holds the rest back. */
const held = (url: string, bytes: number, headers: Record<string, string> = {}) => {
  const answered = new Promise<number>((resolve, reject) => {
    const req: ClientRequest = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${'x'.repeat(bytes)}`);
    held.open.push(req);
  });
  answered.catch(() => undefined);
  return answered;
};
held.open = [] as ClientRequest[];
const release = () => {
  for (const req of held.open.splice(0)) req.destroy();
};

/** Whether a request answers within `ms` (a held one does not): its status, or 'held'. */
const within = <T>(answer: Promise<T>, ms = 500): Promise<T | 'held'> =>
  Promise.race([answer, delay(ms).then(() => 'held' as const)]);

describe('bytes held for requests without credentials are capped (issue 40)', () => {
  it('held anonymous chunked bodies stop at the budget: the next one is 503 at once, a token still gets in', () =>
    withServer(
      { admissionLimits: limits({ anonymousBodyBytes: 64 * KiB, anonymousHeldBytes: 256 * KiB }) },
      async ({ app, url, listening }) => {
        try {
          // Given anonymous bodies of ~60 KiB each, held open, as many as the budget allows
          const answers = Array.from({ length: 4 }, () => held(url, 60 * KiB));
          await delay(200);
          for (const a of answers) assert.equal(await within(a, 50), 'held');
          assert.ok(listening.held.anonymousHeldBytes <= 256 * KiB);
          // When one more comes, it is refused at once, and holds nothing
          const refused = await within(held(url, 60 * KiB));
          assert.equal(refused, 503);
          assert.ok(listening.held.anonymousHeldBytes <= 256 * KiB, JSON.stringify(listening.held));
          // and a request with a valid token is served as ever
          const token = await issueToken(app);
          const ping = await post(
            url,
            { jsonrpc: '2.0', id: 2, method: 'ping' },
            { authorization: `Bearer ${token}` },
          );
          assert.equal(ping.status, 200);
        } finally {
          release();
        }
        // Then, the held ones gone, the budget is whole again
        await delay(100);
        assert.equal(listening.held.anonymousHeldBytes, 0);
        assert.equal((await post(url, initializeBody('2025-06-18'))).status, 200);
      },
    ));

  it('an anonymous body over 64 KiB is 413 at once; the same body with a token is read', () =>
    withServer({}, async ({ app, url }) => {
      const big = { jsonrpc: '2.0', id: 1, method: 'ping', params: { x: 'x'.repeat(100 * KiB) } };
      const anonymous = await post(url, big);
      assert.equal(anonymous.status, 413);
      assert.match(
        ((await anonymous.json()) as { error: { message: string } }).error.message,
        /over 65536 bytes/,
      );
      const token = await issueToken(app);
      assert.equal((await post(url, big, { authorization: `Bearer ${token}` })).status, 200);
      // a token that is no token counts as none
      assert.equal((await post(url, big, { authorization: 'Bearer il_forged' })).status, 413);
    }));
});

describe('open connections are capped (issue 40)', () => {
  it('past the cap a new connection is answered 503 at once and closed; one frees a place', () =>
    withServer({ admissionLimits: limits({ connections: 4 }) }, async ({ url, listening }) => {
      const { port } = new URL(url);
      const sockets: Socket[] = [];
      try {
        for (let i = 0; i < 4; i++) {
          const s = connect(Number(port), '127.0.0.1');
          await new Promise((resolve) => s.once('connect', resolve));
          sockets.push(s);
        }
        await delay(50);
        assert.equal(listening.held.connections, 4);
        const extra = connect(Number(port), '127.0.0.1');
        let answer = '';
        extra.setEncoding('utf8').on('data', (d: string) => (answer += d));
        await new Promise((resolve) => extra.once('close', resolve));
        assert.match(answer, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
        assert.match(answer, /Retry-After: 1/);
        assert.match(answer, /too many connections/);
        assert.equal(listening.held.connections, 4);
        sockets.pop()!.destroy();
        await delay(50);
        assert.equal((await post(url, initializeBody('2025-06-18'))).status, 200);
      } finally {
        for (const s of sockets) s.destroy();
      }
    }));
});
