/**
 * A history scenario's `Server` (history-server.ts) in this process: an in-memory MCP client of
 * one surface over an open app, as `intentlog mcp --surface <s>` serves it. For what needs the
 * scenarios' aggregates without a child process: bench/snapshot-load.ts and the snapshot
 * property test.
 */
import { pathToFileURL } from 'node:url';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import type { App } from '../src/app/app.js';
import { SYSTEM, type Principal } from '../src/commands/principal.js';
import { serverFactory } from '../src/mcp/server.js';
import { resolveSurfaces } from '../src/mcp/surfaces/index.js';
import { modules, surfacesOf } from '../src/modules/index.js';
import type { Envelope, Server } from './history-server.js';
import type { Scenario } from './history-surfaces.js';

const quiet = pino({ level: 'silent' });

export const inProcessServer = async (
  app: App,
  scenario: Scenario,
  dir: string,
  actor?: string,
): Promise<Server> => {
  const principal: Principal = actor ? { kind: 'actor', actor_id: actor } : SYSTEM;
  const factory = serverFactory({
    app,
    selection: resolveSurfaces(surfacesOf(modules), scenario.surface),
    transport: 'stdio',
    principalOf: () => principal,
    log: quiet,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await factory().connect(serverSide);
  const roots = scenario.roots?.(dir) ?? [];
  const client = new Client({ name: 'in-process', version: '1' }, { capabilities: { roots: {} } });
  client.setRequestHandler('roots/list', async () => ({
    roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: 'root' })),
  }));
  await client.connect(clientSide);
  return {
    pid: process.pid,
    async call(name, args, tolerate = false) {
      const answer = await client.callTool({ name, arguments: args }, { timeout: 600_000 });
      const envelope = answer.structuredContent as Envelope;
      if (!envelope?.ok && !tolerate)
        throw new Error(`${name} refused: ${JSON.stringify(envelope ?? answer).slice(0, 400)}`);
      return envelope;
    },
    cpuMs: () => process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000,
    close: () => client.close(),
    stderr: () => '',
  };
};

/** Grows every aggregate of `scenarios` at `scale` through their tools, as the history bench does. */
export const runScenarios = async (
  app: App,
  scenarios: readonly Scenario[],
  dir: string,
  scale: number,
  progress: (n: number) => void = () => undefined,
): Promise<void> => {
  for (const scenario of scenarios) {
    Object.assign(process.env, scenario.env?.(dir) ?? {});
    if (scenario.setup) {
      const system = await inProcessServer(app, scenario, dir);
      await scenario.setup(system);
      await system.close();
    }
    const server = await inProcessServer(app, scenario, dir, scenario.actor);
    const ops = await scenario.seed(server, dir, scale, progress, 2);
    for (const op of ops) await op.run(server, 'large', 0);
    await server.close();
  }
};
