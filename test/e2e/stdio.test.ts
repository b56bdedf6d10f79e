import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { cliIn, withDataDir } from '../cli/cli-harness.js';
import { governanceSurface } from '../../src/mcp/governance/index.js';
import { systemSurface } from '../../src/mcp/surfaces/system.js';
import { intentlog, resultOf, root, stdioClient } from './harness.js';

const VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'];

describe('intentlog mcp (stdio)', () => {
  for (const version of VERSIONS)
    it(`initializes at ${version}, lists tools and calls one as the local SYSTEM principal`, () =>
      withDataDir(async (dir) => {
        const { client, stderr } = await stdioClient(dir, { version });
        assert.equal(client.getNegotiatedProtocolVersion(), version);
        assert.equal(client.getServerVersion()?.name, 'intentlog');
        const { tools } = await client.listTools();
        const served = [...governanceSurface.tools, ...systemSurface.tools].map((t) => t.name);
        assert.deepEqual(tools.map((t) => t.name).sort(), served.sort());
        const me = await resultOf(client, 'whoami');
        assert.deepEqual(me.principal, { kind: 'system' });
        await client.close();
        assert.match(stderr(), /serving MCP on stdio/, 'logs go to stderr');
      }));

  it('acts as the actor named by --actor or INTENTLOG_ACTOR', () =>
    withDataDir(async (dir) => {
      const flag = await stdioClient(dir, { args: ['--actor', 'alice'] });
      assert.deepEqual((await resultOf(flag.client, 'whoami')).principal, {
        kind: 'actor',
        actor_id: 'alice',
      });
      await flag.client.close();
      const env = await stdioClient(dir, { env: { INTENTLOG_ACTOR: 'bob' } });
      assert.deepEqual((await resultOf(env.client, 'whoami')).principal, {
        kind: 'actor',
        actor_id: 'bob',
      });
      await env.client.close();
    }));

  it('writes nothing but protocol to stdout, and exits when the client closes stdin', () =>
    withDataDir(async (dir) => {
      const run = intentlog(['mcp', '--data-dir', dir]);
      const child = spawn(run.command, run.args, { cwd: root, stdio: 'pipe' });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const exit = new Promise<number | null>((done) => child.on('close', done));
      const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'server_info', arguments: {} },
      });
      await new Promise<void>((done) => {
        const check = () => (stdout.includes('"id":2') ? done() : setTimeout(check, 20));
        check();
      });
      child.stdin.end();
      assert.equal(await exit, 0, stderr);
      const lines = stdout.split('\n').filter(Boolean);
      assert.equal(lines.length, 2);
      for (const line of lines)
        assert.equal((JSON.parse(line) as { jsonrpc: string }).jsonrpc, '2.0');
      assert.match(stderr, /"level":30/);
    }));

  it('refuses an unknown surface before serving, saying which exist', () =>
    withDataDir(async (dir) => {
      const result = await cliIn(dir, ['mcp', '--surface', 'nope']);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, /unknown surface "nope"; known: system/);
    }));

  it('two stdio servers on one data dir both work and see each other’s writes', () =>
    withDataDir(async (dir) => {
      const a = await stdioClient(dir);
      const b = await stdioClient(dir);
      const before = (await resultOf(a.client, 'server_info')).log_head as number;
      assert.equal((await resultOf(b.client, 'server_info')).log_head, before);
      // a third process writes while both run (the system surface itself only reads)
      const created = await cliIn(dir, ['token', 'create', '--system']);
      assert.equal(created.code, 0, created.stderr);
      assert.equal((await resultOf(a.client, 'server_info')).log_head, before + 1);
      assert.equal((await resultOf(b.client, 'server_info')).log_head, before + 1);
      // the first to open the data dir is its writer; when it goes, the other carries on
      await a.client.close();
      const again = await cliIn(dir, ['token', 'create', '--system']);
      assert.equal(again.code, 0, again.stderr);
      assert.equal((await resultOf(b.client, 'server_info')).log_head, before + 2);
      await b.client.close();
    }));

  it('two stdio servers with the governance surface: one writes through MCP, the other reads it', () =>
    withDataDir(async (dir) => {
      const governance = ['--surface', 'governance'];
      const operator = await stdioClient(dir, { args: governance });
      const alice = await stdioClient(dir, { args: [...governance, '--actor', 'alice'] });
      await resultOf(operator.client, 'create_project', {
        project_id: 'p1',
        name: 'Project one',
        idempotency_key: 'create-p1',
      });
      await resultOf(operator.client, 'register_actor', {
        project_id: 'p1',
        actor_id: 'alice',
        role: 'PO',
        idempotency_key: 'alice-po',
      });
      const project = await resultOf(alice.client, 'get_project', { project_id: 'p1' });
      assert.equal(project.project_id, 'p1');
      const roster = project.roster as { actor_id: string; role: string }[];
      assert.deepEqual(
        roster.map((m) => [m.actor_id, m.role]),
        [['alice', 'PO']],
      );
      await operator.client.close();
      await alice.client.close();
    }));
});
