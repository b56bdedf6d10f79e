import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { intentlog, root as repoRoot } from '../e2e/harness.js';
import type { Envelope } from './harness.js';

/**
 * A real MCP client over stdio, the way Claude Code or Codex starts `intentlog mcp`: offering
 * `roots` as its client roots (none: no roots capability). `stderr` collects the server's log.
 */
export const stdio = async (dataDir: string, roots: readonly string[] | null) => {
  const transport = new StdioClientTransport({
    ...intentlog(['mcp', '--data-dir', dataDir, '--surface', 'intent']),
    cwd: repoRoot,
    env: { ...getDefaultEnvironment(), INTENTLOG_HOME: '', INTENTLOG_STORE: '' },
    stderr: 'pipe',
  });
  const client = new Client(
    { name: 'e2e', version: '1' },
    roots ? { capabilities: { roots: {} } } : {},
  );
  if (roots)
    client.setRequestHandler('roots/list', async () => ({
      roots: roots.map((r) => ({ uri: pathToFileURL(r).href })),
    }));
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  await client.connect(transport);
  const call = async (
    name: string,
    args: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ) =>
    (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }))
      .structuredContent as Envelope;
  return { client, call, stderr: () => stderr };
};
