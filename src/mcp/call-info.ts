import { randomUUID } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { sha256Hex } from '../events/index.js';
import type { CallInfo, TransportKind } from './tool.js';

/** Over stdio the process is the session: one client, one connection. */
const STDIO_SESSION = `stdio-${process.pid}-${randomUUID()}`;

/**
 * The name a call's MCP session goes by in what the server stores and shows (a story-map claim,
 * `get_story`): never the transport's `Mcp-Session-Id` itself, which is a capability to the
 * session's holder, but a hash of it. The same session always gets the same name, so its claims
 * stay its own; claims stored before (under the raw id) keep their meaning: a session that ended.
 */
export const sessionName = (transportId: string): string =>
  `http-${sha256Hex(`mcp-session\n${transportId}`).slice(0, 32)}`;

const RootsList = z.object({
  roots: z.array(z.object({ uri: z.string(), name: z.string().optional() })),
});

/**
 * Stateless HTTP cannot ask the client anything: each request stands alone and a server request
 * has no way back. Asking anyway held every root-less call for the 2 s `clientRoots` gives a
 * client to answer (issue 40); such a call is told at once that there are none to ask for.
 */
const noWayBack = async (): Promise<never> => {
  throw new Error('roots/list: stateless HTTP cannot send a request to the client');
};

/** What a tool learns of its call beyond the arguments. */
export const callInfo = (request: ServerContext, transport: TransportKind): CallInfo => {
  const transportId = request.sessionId;
  return {
    meta: request.mcpReq._meta as Record<string, unknown> | undefined,
    sessionId:
      transportId !== undefined
        ? sessionName(transportId)
        : transport === 'stdio'
          ? STDIO_SESSION
          : undefined,
    listRoots:
      transport === 'http' && transportId === undefined
        ? noWayBack
        : async () => RootsList.parse(await request.mcpReq.send({ method: 'roots/list' })).roots,
  };
};
