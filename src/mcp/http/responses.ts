/** A JSON-RPC error answered at the HTTP layer, before any MCP server sees the request. */
export const jsonRpcError = (
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: string | number | null = null,
): Response => Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status, headers });
