import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { intentlog, root } from '../e2e/harness.js';
import { withMissions, type MissionsWorld } from './harness.js';

/**
 * A HAI-MCP client, as its public tests read answers: exactly one text block, whose text is the
 * JSON of the whole answer (`json.loads(result.content[0].text)`), equal to `structuredContent`.
 */

export type Answer = Record<string, unknown> & { ok?: boolean; error?: unknown };
export type Gate = 'nonce' | 'ack_legacy';

/** The parsed text block of a tool result, checked against its structured content. */
export const answerOf = (result: { content?: unknown; structuredContent?: unknown }): Answer => {
  const content = result.content as { type: string; text?: string }[];
  assert.equal(content.length, 1, 'exactly one content block');
  assert.equal(content[0]!.type, 'text');
  const parsed = JSON.parse(content[0]!.text!) as Answer;
  assert.deepEqual(parsed, result.structuredContent, 'the text block is the structured content');
  return parsed;
};

export type Hai = {
  call(name: string, args?: Record<string, unknown>): Promise<Answer>;
  tools(): Promise<string[]>;
  /** the home, owner home and a scratch directory of this server */
  dirs: { home: string; owner: string; scratch: string };
};

/** `intentlog mcp --surface missions` over stdio, with only HAI-MCP's own variables set. */
export const haiServer = async (
  options: { gate?: Gate; env?: Record<string, string> } = {},
): Promise<Hai & { close(): Promise<void>; stderr(): string }> => {
  const base = await mkdtemp(join(tmpdir(), 'intentlog-hai-'));
  const dirs = {
    home: join(base, 'hai-home'),
    owner: join(base, 'hai-home-owner'),
    scratch: join(base, 'scratch'),
  };
  await mkdir(dirs.home, { recursive: true });
  await mkdir(dirs.scratch, { recursive: true });
  const run = intentlog(['mcp', '--surface', 'missions']);
  const transport = new StdioClientTransport({
    ...run,
    cwd: root,
    // getDefaultEnvironment carries no INTENTLOG_* variable: they are unset, not blank
    env: {
      ...getDefaultEnvironment(),
      HAI_HOME: dirs.home,
      HAI_OWNER_HOME: dirs.owner,
      ...(options.gate ? { HAI_OWNER_GATE: options.gate } : {}),
      ...options.env,
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'hai-compat', version: '1' });
  await client.connect(transport);
  return {
    dirs,
    call: async (name, args = {}) => answerOf(await client.callTool({ name, arguments: args })),
    tools: async () => (await client.listTools()).tools.map((t) => t.name).sort(),
    stderr: () => stderr,
    close: async () => {
      await client.close();
      await rm(base, { recursive: true, force: true });
    },
  };
};

/**
 * The same client over the in-memory transport (`withMissions`), with a fake clock: for the
 * scenarios that move time.
 */
export const memoryServer = <T>(
  options: { gate?: Gate },
  body: (hai: Hai, world: MissionsWorld) => Promise<T>,
): Promise<T> =>
  withMissions(
    (world) =>
      body(
        {
          dirs: { home: world.dirs.data, owner: world.dirs.owner, scratch: world.dirs.outside },
          call: async (name, args = {}) =>
            answerOf(await world.client.callTool({ name, arguments: args })),
          tools: async () => (await world.client.listTools()).tools.map((t) => t.name).sort(),
        },
        world,
      ),
    { gateMode: options.gate ?? 'nonce' },
  );
