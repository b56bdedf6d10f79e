import type { CallToolResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import { domainError, forbidden } from '../commands/errors.js';
import { errorResult } from './result.js';
import { toolsServed, type SelectedSurface } from './surfaces/index.js';

/** Why a tool of a selected surface is not served: the tier it needs, or `--read-only`. */
type Unserved = { surface: SelectedSurface['surface']; tier: string; needs: string | undefined };

/** Tools of the selected surfaces a server does not list, by name. */
const unservedTools = (
  selection: readonly SelectedSurface[],
  readOnly: boolean,
): Map<string, Unserved> => {
  const unserved = new Map<string, Unserved>();
  for (const selected of selection) {
    const { surface, tier } = selected;
    const rank = surface.tiers.indexOf(tier);
    const served = new Set(toolsServed(selected, readOnly));
    for (const tool of surface.tools)
      if (!served.has(tool))
        unserved.set(tool.name, {
          surface,
          tier,
          needs: surface.tiers.indexOf(tool.tier) > rank ? tool.tier : undefined,
        });
  }
  return unserved;
};

const modeRequired = (name: string, { surface, tier, needs }: Unserved) =>
  domainError(
    'mode_required',
    `${name} needs mode ${needs}; this server runs ${surface.name} in mode ${tier}. Restart it with --surface ${surface.name}:${needs} to use ${name}.`,
    { tool: name, mode_needed: needs, mode: tier, surface: surface.name },
  );

const readOnlyRefusal = (name: string, { surface }: Unserved) =>
  forbidden(
    `${name} changes the ledger; this server is read-only (--read-only) and serves only tools that change nothing`,
    { tool: name, read_only: true, surface: surface.name },
  );

const refusal = (name: string, unserved: Unserved): CallToolResult =>
  errorResult(
    { name },
    null,
    unserved.needs !== undefined ? modeRequired(name, unserved) : readOnlyRefusal(name, unserved),
    unserved.surface,
  );

type CallHandler = (request: unknown, ctx: unknown) => Promise<unknown>;
type WithStoredHandlers = { _getRequestHandler?: (method: string) => CallHandler | undefined };

/**
 * A tool outside the tier (the local story map's mode), or one that changes the ledger on a
 * `--read-only` server, is not listed, and a call to it is refused before anything runs, naming
 * why (the tier it needs, or read-only), instead of the SDK's bare "Tool … not found". The SDK
 * has no hook for unknown tools, so the McpServer's own tools/call handler is wrapped; it is left
 * untouched where every tool is served (and if a later SDK hides the stored handler, a call
 * simply gets the SDK's answer, which runs nothing either).
 */
export const refuseUnserved = (
  server: McpServer,
  selection: readonly SelectedSurface[],
  readOnly = false,
): void => {
  const unserved = unservedTools(selection, readOnly);
  if (unserved.size === 0) return;
  const inner = (server.server as unknown as WithStoredHandlers)._getRequestHandler?.('tools/call');
  if (!inner) return;
  server.server.setRequestHandler('tools/call', async (request, ctx: ServerContext) => {
    const name = request.params.name;
    const refused = unserved.get(name);
    if (refused) return refusal(name, refused);
    return (await inner(request, ctx)) as CallToolResult;
  });
};
