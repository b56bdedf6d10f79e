import type { CallToolResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import { domainError } from '../commands/errors.js';
import { errorResult } from './result.js';
import type { SelectedSurface } from './surfaces/index.js';

type Outside = { surface: SelectedSurface['surface']; tier: string; needs: string };

/** Tools of the selected surfaces above the tier served, by name. */
const outsideTiers = (selection: readonly SelectedSurface[]): Map<string, Outside> => {
  const outside = new Map<string, Outside>();
  for (const { surface, tier } of selection) {
    const rank = surface.tiers.indexOf(tier);
    for (const tool of surface.tools)
      if (surface.tiers.indexOf(tool.tier) > rank)
        outside.set(tool.name, { surface, tier, needs: tool.tier });
  }
  return outside;
};

const refusal = (name: string, { surface, tier, needs }: Outside): CallToolResult =>
  errorResult(
    { name },
    null,
    domainError(
      'mode_required',
      `${name} needs mode ${needs}; this server runs ${surface.name} in mode ${tier}. Restart it with --surface ${surface.name}:${needs} to use ${name}.`,
      { tool: name, mode_needed: needs, mode: tier, surface: surface.name },
    ),
    surface,
  );

type CallHandler = (request: unknown, ctx: unknown) => Promise<unknown>;
type WithStoredHandlers = { _getRequestHandler?: (method: string) => CallHandler | undefined };

/**
 * A tool outside the tier (the local story map's mode) is not listed, and a call to it is
 * refused naming the tier it needs, instead of the SDK's bare "Tool … not found". The SDK has no
 * hook for unknown tools, so the McpServer's own tools/call handler is wrapped; it is left
 * untouched where every tool is served (and if a later SDK hides the stored handler, a call
 * simply gets the SDK's answer).
 */
export const refuseOutsideTiers = (
  server: McpServer,
  selection: readonly SelectedSurface[],
): void => {
  const outside = outsideTiers(selection);
  if (outside.size === 0) return;
  const inner = (server.server as unknown as WithStoredHandlers)._getRequestHandler?.('tools/call');
  if (!inner) return;
  server.server.setRequestHandler('tools/call', async (request, ctx: ServerContext) => {
    const name = request.params.name;
    const refused = outside.get(name);
    if (refused) return refusal(name, refused);
    return (await inner(request, ctx)) as CallToolResult;
  });
};
