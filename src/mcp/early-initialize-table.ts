import { InMemoryTransport, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import pino from 'pino';
import type { App } from '../app/app.js';
import { SYSTEM } from '../commands/principal.js';
import type { EarlySurface, EarlyTable, InitializeResult } from './early-initialize.js';
import { ENVELOPE, serverFactory } from './server.js';
import {
  assertNoClash,
  DEFAULT_SURFACES,
  resolveSurfaces,
  type SelectedSurface,
} from './surfaces/index.js';
import type { Surface } from './tool.js';

/** A protocol version no SDK supports: what a client asking for it gets is the fallback. */
const UNKNOWN_VERSION = '1900-01-01';

/**
 * What the full server (server.ts, the one `intentlog mcp` hands the connection to) answers to
 * `initialize` serving `selection`: asked for real, over an in-memory transport, with an app
 * that never opens (answering `initialize` needs none).
 */
export const fullServerAnswer = async (
  selection: readonly SelectedSurface[],
  protocolVersion: string,
): Promise<InitializeResult> => {
  const factory = serverFactory({
    app: new Promise<App>(() => undefined),
    selection,
    transport: 'stdio',
    principalOf: () => SYSTEM,
    log: pino({ enabled: false }),
  });
  const server = factory();
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const answered = new Promise<unknown>((resolve) => {
    clientSide.onmessage = (message) => resolve(message);
  });
  await server.connect(serverSide);
  await clientSide.start();
  await clientSide.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'build', version: '0' } },
  });
  const message = (await answered) as { result?: InitializeResult; error?: unknown };
  await server.close();
  if (!message.result) throw new Error(`initialize failed: ${JSON.stringify(message.error)}`);
  return message.result;
};

const clashesOf = (surface: Surface, all: readonly Surface[]): string[] =>
  all
    .filter((other) => other !== surface)
    .filter((other) => {
      try {
        assertNoClash([surface, other]);
        return false;
      } catch {
        return true;
      }
    })
    .map((other) => other.name);

const earlySurface = async (surface: Surface, all: readonly Surface[]): Promise<EarlySurface> => {
  const capabilities: EarlySurface['capabilities'] = {};
  for (const tier of surface.tiers) {
    const selection = resolveSurfaces(all, `${surface.name}:${tier}`);
    capabilities[tier] = (await fullServerAnswer(selection, UNKNOWN_VERSION)).capabilities;
  }
  return {
    name: surface.name,
    tiers: [...surface.tiers],
    defaultTier: surface.defaultTier,
    instructions: surface.instructions,
    capabilities,
    clashes: clashesOf(surface, all),
  };
};

/**
 * The table `intentlog mcp` answers `initialize` from before its surfaces load, built from the
 * surfaces it serves (src/modules/surfaces.ts) at build time. A surface whose definition the
 * server refuses is left out: `mcp --surface` with it then waits for the full server's answer.
 */
export const earlyTable = async (surfaces: readonly Surface[]): Promise<EarlyTable> => {
  const served = surfaces.filter((s) => {
    try {
      resolveSurfaces(surfaces, s.name);
      return true;
    } catch {
      return false;
    }
  });
  const probe = resolveSurfaces(surfaces, served[0]!.name);
  const versions: string[] = [];
  for (const version of SUPPORTED_PROTOCOL_VERSIONS)
    if ((await fullServerAnswer(probe, version)).protocolVersion === version)
      versions.push(version);
  const unknown = await fullServerAnswer(probe, UNKNOWN_VERSION);
  return {
    serverInfo: unknown.serverInfo,
    defaultSpec: DEFAULT_SURFACES,
    envelope: ENVELOPE,
    versions,
    fallback: unknown.protocolVersion,
    surfaces: await Promise.all(served.map((s) => earlySurface(s, surfaces))),
  };
};
