import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import parsePrometheus from 'parse-prometheus-text-format';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { cliIn, seed, withDataDir } from '../cli/cli-harness.js';
import { silent, withApp } from '../mcp/harness.js';
import { httpClient, issueToken } from '../mcp/http-harness.js';

const origin = (url: string) => new URL(url).origin;

describe('health and metrics', () => {
  it('GET /healthz tells role, store, head and each read model’s lag; /metrics parses', () =>
    withApp(async (app) => {
      const listening = await serveOverHttp({
        app,
        selection: resolveSurfaces(surfacesOf(modules), 'system'),
        log: silent,
        host: '127.0.0.1',
        port: 0,
        stateful: false,
        store: 'memory',
      });
      try {
        const token = await issueToken(app);
        const { client } = await httpClient(listening.url, { token });
        await client.callTool({ name: 'server_info', arguments: {} });
        await client.callTool({ name: 'server_info', arguments: { nope: 1 } });
        await client.close();

        const health = await fetch(`${origin(listening.url)}/healthz`);
        assert.equal(health.status, 200);
        const body = (await health.json()) as {
          status: string;
          role: string;
          store: string;
          head: number;
          read_models: { name: string; position: number; lag: number }[];
        };
        assert.equal(body.status, 'ok');
        assert.equal(body.role, 'writer');
        assert.equal(body.store, 'memory');
        assert.equal(body.head, await app.log.head());
        const names = body.read_models.map((m) => m.name);
        assert.deepEqual(
          names,
          app.projectors.map((p) => p.name),
        );
        for (const m of body.read_models) assert.equal(m.lag, body.head - m.position);

        const scraped = await fetch(`${origin(listening.url)}/metrics`);
        assert.match(scraped.headers.get('content-type') ?? '', /^text\/plain/);
        const families = new Map(parsePrometheus(await scraped.text()).map((f) => [f.name, f]));
        const calls = families.get('intentlog_tool_calls_total');
        assert.equal(calls?.type, 'COUNTER');
        const count = (outcome: string) =>
          Number(
            calls?.metrics.find(
              (m) => m.labels?.tool === 'server_info' && m.labels.outcome === outcome,
            )?.value,
          );
        assert.equal(count('ok'), 1);
        assert.equal(count('invalid_argument'), 1);
        const latency = families.get('intentlog_tool_call_duration_seconds');
        assert.equal(latency?.type, 'HISTOGRAM');
        // every call lands in the +Inf bucket (the parser keeps buckets, not _count)
        assert.equal(Number(latency?.metrics[0]?.buckets?.['+Inf']), 2);
        const lag = families.get('intentlog_read_model_lag_events');
        assert.deepEqual(lag?.metrics.map((m) => m.labels?.model).sort(), [...names].sort());
        assert.equal(Number(families.get('intentlog_writer')?.metrics[0]?.value), 1);
        assert.equal(Number(families.get('intentlog_log_head')?.metrics[0]?.value), body.head);
        assert.ok(families.has('process_cpu_user_seconds_total'), 'default process metrics');
      } finally {
        await listening.close();
      }
    }));

  it('intentlog status prints the same for a data dir, as text, JSON and metrics', () =>
    withDataDir(async (dir) => {
      await seed(dir);
      const json = await cliIn(dir, ['status', '--json']);
      assert.equal(json.code, 0, json.stderr);
      const health = JSON.parse(json.stdout) as { status: string; store: string; head: number };
      assert.equal(health.status, 'ok');
      assert.equal(health.store, 'leveldb');
      assert.ok(health.head > 0);
      const text = await cliIn(dir, ['status']);
      assert.match(text.stdout, new RegExp(`^head\\t${health.head}$`, 'm'));
      assert.match(text.stdout, /^read model\t\S+\tv\d+\tposition \d+\tlag \d+$/m);
      const metrics = await cliIn(dir, ['status', '--metrics']);
      const families = parsePrometheus(metrics.stdout).map((f) => f.name);
      assert.ok(families.includes('intentlog_read_model_lag_events'));
    }));
});
