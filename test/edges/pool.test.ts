import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { serverPool } from '../../src/mcp/http/pool.js';
import { initializeBody, JSON_HEADERS } from '../mcp/http-harness.js';

const factory = () => {
  const server = new McpServer({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  server.registerTool('add', { inputSchema: z.object({ a: z.number() }) }, async ({ a }) => ({
    content: [{ type: 'text', text: String(a + 1) }],
  }));
  return server;
};

const request = (body: unknown) =>
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify(body),
  });

const call = (a: number) => ({
  jsonrpc: '2.0',
  id: a,
  method: 'tools/call',
  params: { name: 'add', arguments: { a } },
});

const answer = async (response: Response) =>
  ((await response.json()) as { result: { content: { text: string }[] } }).result.content[0]!.text;

describe('the stateless server pool', () => {
  it('builds one server per concurrent request, not per request; each answer is its own', async () => {
    const pool = serverPool(factory);
    for (let a = 0; a < 20; a++)
      assert.equal(await answer(await pool.handle(request(call(a)), call(a))), String(a + 1));
    assert.equal(pool.made, 1);
    const many = await Promise.all(
      Array.from({ length: 8 }, (_, a) => pool.handle(request(call(a)), call(a)).then(answer)),
    );
    assert.deepEqual(
      many,
      Array.from({ length: 8 }, (_, a) => String(a + 1)),
    );
    assert.ok(pool.made <= 8, `made ${pool.made}`);
    const made = pool.made;
    for (let a = 0; a < 20; a++) await pool.handle(request(call(a)), call(a));
    assert.equal(pool.made, made, 'idle servers are reused');
  });

  it('initialize gets a server of its own that is not reused', async () => {
    const pool = serverPool(factory);
    const init = initializeBody('2025-11-25');
    const response = await pool.handle(request(init), init);
    assert.equal(response.status, 200);
    await pool.handle(request(call(1)), call(1));
    assert.equal(pool.made, 2);
  });
});
