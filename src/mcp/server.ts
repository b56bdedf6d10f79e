import { readFileSync } from 'node:fs';
import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { App } from '../app/app.js';
import type { CallObserver } from '../app/metrics.js';
import { forbidden } from '../commands/errors.js';
import type { Principal } from '../commands/principal.js';
import { registerSurface, type ContextOf } from './adapter.js';
import { toolsServed, type SelectedSurface } from './surfaces/index.js';
import { refuseUnserved } from './tier-refusal.js';
import { callInfo } from './call-info.js';
import type { ServedInfo, TransportKind } from './tool.js';

export const SERVER_NAME = 'intentlog';

/**
 * The package's version, from the package.json above this file: two levels up in `dist/` and
 * under tsx, four in the bench's build (`.tmp/bench-build/src/mcp`).
 */
export const packageVersion = (): string => {
  for (const up of ['../../package.json', '../../../../package.json'])
    try {
      const json = readFileSync(new URL(up, import.meta.url), 'utf8');
      return (JSON.parse(json) as { version: string }).version;
    } catch {
      // not there: try further up
    }
  return '0.0.0';
};

export type ServerSetup = {
  /**
   * The app, or its opening: `intentlog mcp` answers `initialize` and the lists while the store
   * opens and the read models catch up, and a call waits for it here.
   */
  app: App | Promise<App>;
  selection: readonly SelectedSurface[];
  transport: TransportKind;
  /** the principal a request acts as, when it has one */
  principalOf: (request: ServerContext) => Principal | undefined;
  log: Logger;
  /** told about every tool call (metrics.ts) */
  observe?: CallObserver;
  /**
   * `--read-only`: only tools whose `readOnlyHint` is true are listed, and a call to any other
   * is refused before it runs (tier-refusal.ts), so it cannot append to the log.
   */
  readOnly?: boolean;
};

export const servedInfo = (
  selection: readonly SelectedSurface[],
  transport: TransportKind,
  readOnly = false,
): ServedInfo => ({
  name: SERVER_NAME,
  version: packageVersion(),
  transport,
  surfaces: selection.map((selected) => ({
    name: selected.surface.name,
    tier: selected.tier,
    tools: toolsServed(selected, readOnly).map((t) => t.name),
  })),
});

/**
 * What every tool's answer means, said once here instead of in each tool's output schema
 * (compact-schema.ts drops output descriptions). How a failure reads is each surface's own
 * (missions answers HAI-MCP's flat `error: "<code>"`), so each surface's instructions say it.
 */
export const ENVELOPE =
  'Every tool answers with one envelope in structuredContent: ok (true: the call succeeded; ' +
  'false: it failed, in the shape each surface below names — branch on the error code, not on ' +
  'the message), schema_version (of this operation’s result shape), operation, project_id ' +
  '(the project acted on, if any), replayed (an idempotency key replayed the stored answer) ' +
  'and position (the global log position the call reached).';

const contextFor = (setup: ServerSetup, served: ServedInfo): ContextOf => {
  return async (request) => {
    const principal = setup.principalOf(request);
    if (!principal)
      throw forbidden('this call needs credentials: send Authorization: Bearer <token>');
    return {
      app: await setup.app,
      principal,
      served,
      signal: request.mcpReq.signal,
      log: setup.log,
      call: callInfo(request, setup.transport),
    };
  };
};

/**
 * A factory of McpServer instances serving the selected surfaces: one per stdio connection, one
 * per HTTP request in stateless mode, one per session in stateful mode. Registering is cheap;
 * the surfaces are plain tables.
 */
export const serverFactory = (setup: ServerSetup): (() => McpServer) => {
  const readOnly = setup.readOnly ?? false;
  const served = servedInfo(setup.selection, setup.transport, readOnly);
  const contextOf = contextFor(setup, served);
  const instructions = [ENVELOPE, ...setup.selection.map((s) => s.surface.instructions)].join(
    '\n\n',
  );
  const experimental = Object.assign({}, ...setup.selection.map((s) => s.surface.experimental));
  return () => {
    const server = new McpServer(
      { name: SERVER_NAME, title: 'intentlog', version: served.version },
      {
        capabilities: { tools: {}, resources: {}, prompts: {}, logging: {}, experimental },
        instructions,
      },
    );
    for (const selected of setup.selection)
      registerSurface(
        server,
        selected.surface,
        toolsServed(selected, readOnly),
        contextOf,
        setup.observe,
      );
    refuseUnserved(server, setup.selection, readOnly);
    return server;
  };
};
