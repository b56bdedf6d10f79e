import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cliIn, withDataDir } from '../cli/cli-harness.js';
import { resultOf, startServe } from './harness.js';

const connect = async (url: string, token?: string) => {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const client = new Client({ name: 'e2e', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  return client;
};

describe('intentlog serve (Streamable HTTP)', () => {
  it('prints once how to connect: URL, token, Claude Code and Codex snippets for HTTP and stdio', () =>
    withDataDir(async (dir) => {
      const serving = await startServe(dir);
      try {
        const { banner, url } = serving;
        assert.equal(banner.split(url).length - 1 >= 3, true, 'the URL is in the snippets');
        assert.match(banner, /token create --system --data-dir /);
        assert.match(
          banner,
          new RegExp(`claude mcp add --transport http intentlog ${url} --header`),
        );
        assert.match(banner, /claude mcp add intentlog -- \S+ .* mcp --data-dir /);
        assert.match(banner, /"mcpServers"/);
        assert.match(banner, /"Authorization": "Bearer \$\{INTENTLOG_TOKEN\}"/);
        assert.match(
          banner,
          new RegExp(`codex mcp add intentlog --url ${url} --bearer-token-env-var INTENTLOG_TOKEN`),
        );
        assert.match(banner, /codex mcp add intentlog -- /);
        assert.match(banner, /\[mcp_servers\.intentlog\]\n\s+url = /);
        assert.match(banner, /\[mcp_servers\.intentlog\]\n\s+command = /);
        assert.equal(banner.split('intentlog 0.').length - 1, 1, 'printed once');
      } finally {
        await serving.stop();
      }
    }));

  for (const stateful of [false, true])
    it(`serves a token made by \`intentlog token create\` while it runs (${stateful ? 'stateful' : 'stateless'})`, () =>
      withDataDir(async (dir) => {
        const serving = await startServe(dir, stateful ? ['--stateful'] : []);
        try {
          const anonymous = await connect(serving.url);
          assert.ok((await anonymous.listTools()).tools.length > 0);
          await assert.rejects(anonymous.callTool({ name: 'whoami', arguments: {} }));
          await anonymous.close();
          const created = await cliIn(dir, ['token', 'create', '--actor', 'carol']);
          assert.equal(created.code, 0, created.stderr);
          const client = await connect(serving.url, created.stdout.trim());
          const me = await resultOf(client, 'whoami');
          assert.deepEqual(me.principal, { kind: 'actor', actor_id: 'carol' });
          await client.close();
        } finally {
          await serving.stop();
        }
      }));

  it('stops on SIGTERM with exit code 0 and leaves the data dir for the next process', () =>
    withDataDir(async (dir) => {
      const serving = await startServe(dir);
      const token = (await cliIn(dir, ['token', 'create', '--system'])).stdout.trim();
      const client = await connect(serving.url, token);
      await resultOf(client, 'server_info');
      await client.close();
      assert.equal(await serving.stop('SIGTERM'), 0, serving.stderr());
      assert.match(serving.stderr(), /"msg":"stopped"/);
      assert.equal(existsSync(join(dir, 'writer.sock')), false, 'no stale writer socket');
      const list = await cliIn(dir, ['token', 'list']);
      assert.equal(list.code, 0, list.stderr);
      assert.equal(list.stdout.trim().split('\n').length, 1);
    }));

  it('refuses to start on a taken port, saying why', () =>
    withDataDir(async (dir) => {
      const serving = await startServe(dir);
      try {
        const port = new URL(serving.url).port;
        const second = await cliIn(`${dir}-2`, ['serve', '--port', port]);
        assert.equal(second.code, 1);
        assert.match(second.stderr, /EADDRINUSE/);
      } finally {
        await serving.stop();
      }
    }));
});
