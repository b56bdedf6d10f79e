import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import parsePrometheus from 'parse-prometheus-text-format';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { cliIn, seed, withDataDir } from '../cli/cli-harness.js';
import { silent, withApp } from '../mcp/harness.js';
import { httpClient, issueToken } from '../mcp/http-harness.js';
import { appMetrics } from '../../src/app/metrics.js';
import { SYSTEM } from '../../src/commands/principal.js';

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

  it('/metrics exports group commit (batch sizes, write and wait times) and live subscribers', () =>
    withApp(async (app) => {
      const metrics = appMetrics(app, { defaults: false });
      const scrape = async () => {
        const families = new Map(parsePrometheus(await metrics.text()).map((f) => [f.name, f]));
        const sample = (name: string) => families.get(name)?.metrics[0];
        const inf = (name: string) => Number(sample(name)?.buckets?.['+Inf'] ?? 0);
        return {
          batches: inf('intentlog_commit_batch_appends'),
          appends: Number(sample('intentlog_commit_batch_appends')?.sum ?? 0),
          events: Number(sample('intentlog_committed_events_total')?.value ?? 0),
          writes: inf('intentlog_commit_write_seconds'),
          waits: inf('intentlog_commit_wait_seconds'),
          live: Number(sample('intentlog_live_subscribers')?.value),
          types: [...families.values()].map((f) => `${f.name} ${f.type}`),
        };
      };
      const before = await scrape();
      assert.ok(before.types.includes('intentlog_commit_batch_appends HISTOGRAM'));
      assert.ok(before.types.includes('intentlog_commit_wait_seconds HISTOGRAM'));
      assert.ok(before.live >= 1, 'the read models follow the log live');

      const writers = 24;
      await Promise.all(
        Array.from({ length: writers }, (_, i) => app.tokens.issue(SYSTEM, `t${i}`, SYSTEM)),
      );
      const after = await scrape();
      assert.equal(after.events - before.events, writers, 'one token.issued per command');
      assert.equal(after.waits - before.waits, writers, 'one wait per append');
      assert.equal(after.appends - before.appends, writers);
      const batches = after.batches - before.batches;
      assert.ok(batches >= 1 && batches <= writers, `${batches} batches`);
      assert.equal(after.writes - before.writes, batches, 'one durable write per batch');

      // a subscription reaches the writer's log once the route to it is ready: poll briefly
      const liveBecomes = async (n: number) => {
        for (let i = 0; i < 100 && (await scrape()).live !== n; i++)
          await new Promise((resolve) => setTimeout(resolve, 10));
        assert.equal((await scrape()).live, n);
      };
      const watching = app.log.live().subscribe(() => {});
      await liveBecomes(after.live + 1);
      watching.unsubscribe();
      await liveBecomes(after.live);
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
