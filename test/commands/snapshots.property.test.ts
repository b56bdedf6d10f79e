import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { Server, Envelope } from '../../bench/history-server.js';
import { SCENARIOS, type Scenario } from '../../bench/history-surfaces.js';
import type { App } from '../../src/app/app.js';
import { Snapshots } from '../../src/commands/snapshots.js';
import { SYSTEM, type Principal } from '../../src/commands/principal.js';
import type { Event } from '@event-driven-io/emmett';
import { StateCodec } from '../../src/events/index.js';
import { serverFactory } from '../../src/mcp/server.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, openIntentlog, surfacesOf } from '../../src/modules/index.js';
import { silent } from '../mcp/harness.js';

/**
 * For every fold that declares snapshots (Snapshots.declared: each context's aggregates), the
 * state loaded from a snapshot and the tail equals the state folded from the first event. The
 * streams come from a real workload: each surface's history scenario (bench/history-surfaces.ts,
 * the aggregates issue 39 grows) run small, in process, with a snapshot written on every load.
 * Generic over the deciders: a context that reshapes its state is covered as it is, and a fold
 * declared without a stream in the workload fails the coverage check, so it gets one.
 */
const SCALE = 0.01;
/**
 * Declared folds no history scenario makes a stream of yet: each is a gap to close by growing its
 * aggregate in bench/history-surfaces.ts (a run is created by the founder's flow). The check
 * fails when a gap is covered, so the list only shrinks.
 */
const WORKLOAD_GAPS = ['storymap.run'];

/** Scenario calls through an in-memory MCP client of one surface, as `mcp --surface` serves. */
const inProcess = async (
  app: App,
  scenario: Scenario,
  dir: string,
  actor?: string,
): Promise<Server & { end(): Promise<void> }> => {
  const principal: Principal = actor ? { kind: 'actor', actor_id: actor } : SYSTEM;
  const factory = serverFactory({
    app,
    selection: resolveSurfaces(surfacesOf(modules), scenario.surface),
    transport: 'stdio',
    principalOf: () => principal,
    log: silent,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await factory().connect(serverSide);
  const roots = scenario.roots?.(dir) ?? [];
  const client = new Client({ name: 'snapshots', version: '1' }, { capabilities: { roots: {} } });
  client.setRequestHandler('roots/list', async () => ({
    roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: 'root' })),
  }));
  await client.connect(clientSide);
  return {
    pid: process.pid,
    async call(name, args, tolerate = false) {
      const answer = await client.callTool({ name, arguments: args });
      const envelope = answer.structuredContent as Envelope;
      if (!envelope?.ok && !tolerate)
        throw new Error(`${name} refused: ${JSON.stringify(envelope ?? answer).slice(0, 400)}`);
      return envelope;
    },
    cpuMs: () => 0,
    close: async () => undefined,
    stderr: () => '',
    end: () => client.close(),
  };
};

const runWorkload = async (app: App, dir: string) => {
  for (const scenario of SCENARIOS) {
    Object.assign(process.env, scenario.env?.(dir) ?? {});
    if (scenario.setup) {
      const system = await inProcess(app, scenario, dir);
      await scenario.setup(system);
      await system.end();
    }
    const server = await inProcess(app, scenario, dir, scenario.actor);
    const ops = await scenario.seed(server, dir, SCALE, () => undefined, 2);
    for (const op of ops) await op.run(server, 'large', 0);
    await server.end();
  }
};

const bytes = (state: unknown) => StateCodec.encode(state);

describe('snapshots: state from a snapshot and the tail equals the state folded from the first event', () => {
  it('for every declared fold, over the streams a workload of every surface makes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'intentlog-snapshots-'));
    const env = { ...process.env };
    let reopened: App | undefined;
    process.env.INTENTLOG_SNAPSHOT_EVERY = '1';
    try {
      const dataDir = join(dir, 'data');
      let app = await openIntentlog({ dataDir });
      await runWorkload(app, dir);
      await app.log.snapshots!.settled();
      await app.close();

      app = await openIntentlog({ dataDir });
      reopened = app;
      const kept = await app.log.snapshots!.list();
      const declared = Snapshots.declared();
      const uncovered = declared.filter((d) => !kept.some((k) => k.name === d.name));
      assert.deepEqual(
        uncovered.map((d) => d.name).sort(),
        declared
          .map((d) => d.name)
          .filter((n) => WORKLOAD_GAPS.includes(n))
          .sort(),
        'every declared fold has a stream in the workload, but the known gaps',
      );

      for (const snapshot of kept) {
        const fold = declared.find((d) => d.name === snapshot.name);
        if (!fold) continue; // a fold of another build (a test's): not ours to check
        const events = (await app.log.readStream(snapshot.stream)).events as Event[];
        const evolve = fold.evolve as (state: unknown, event: Event) => unknown;
        const whole = events.reduce(evolve, fold.initialState());
        // the store's own load, from the persisted snapshot (this process's caches are empty)
        const loaded = await app.log.aggregateStream(snapshot.stream, fold as never);
        assert.deepEqual(bytes(loaded.state), bytes(whole), `${snapshot.name} ${snapshot.stream}`);
        // and from a snapshot at any version
        fc.assert(
          fc.property(fc.integer({ min: 0, max: events.length }), (at) => {
            const head = events.slice(0, at).reduce(evolve, fold.initialState());
            const restored = StateCodec.decode(StateCodec.encode(head));
            const state = events.slice(at).reduce(evolve, restored);
            assert.deepEqual(bytes(state), bytes(whole));
          }),
          { numRuns: 20 },
        );
      }
    } finally {
      await reopened?.close();
      process.env = env;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
