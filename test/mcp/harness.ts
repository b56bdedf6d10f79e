import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import pino from 'pino';
import { z } from 'zod';
import type { App } from '../../src/app/app.js';
import { openIntentlog } from '../../src/modules/index.js';
import { conflict } from '../../src/commands/errors.js';
import type { Principal } from '../../src/commands/principal.js';
import { serverFactory } from '../../src/mcp/server.js';
import type { SelectedSurface } from '../../src/mcp/surfaces/index.js';
import { Annotations, defineTool, type Surface } from '../../src/mcp/tool.js';

export const silent = pino({ level: 'silent' });
export const SYSTEM: Principal = { kind: 'system' };

/** An app on the memory store in a temporary directory, closed and removed after the body. */
export const withApp = async <T>(body: (app: App) => Promise<T>): Promise<T> => {
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-mcp-'));
  const app = await openIntentlog({ dataDir: dir, store: 'memory' });
  try {
    return await body(app);
  } finally {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
};

/** A gate a test opens by hand: lets a tool call stay in flight until the test says so. */
export const gate = () => {
  let open!: () => void;
  let entered!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (entered = resolve));
  return { open, opened, reached, enter: entered };
};

/**
 * A surface made for tests: each tool exercises one path of the adapter. `held` is the gate the
 * `hold` tool waits at.
 */
export const probeSurface = (held = gate()): Surface => ({
  name: 'probe',
  title: 'test probe',
  instructions: 'test only',
  tiers: ['core', 'all'],
  defaultTier: 'all',
  tools: [
    defineTool({
      name: 'echo',
      title: 'Echo',
      description: 'Returns its text.',
      input: z.strictObject({ text: z.string().min(1), project_id: z.string().optional() }),
      output: z.object({ text: z.string() }),
      annotations: Annotations.query,
      tier: 'core',
      run: async ({ text, project_id }) => ({ result: { text }, project_id: project_id ?? null }),
    }),
    defineTool({
      name: 'refuse',
      title: 'Refuse',
      description: 'Always fails with a conflict.',
      input: z.strictObject({ project_id: z.string() }),
      output: z.object({}),
      annotations: Annotations.mutation({ destructive: false, idempotent: true }),
      tier: 'all',
      run: async () => {
        throw conflict('already claimed', { claimed_by: 'alice' });
      },
    }),
    defineTool({
      name: 'crash',
      title: 'Crash',
      description: 'Throws a plain error carrying a secret.',
      input: z.strictObject({}),
      output: z.object({}),
      annotations: Annotations.query,
      tier: 'all',
      run: async () => {
        throw new Error('secret connection string postgres://u:p@h/db');
      },
    }),
    defineTool({
      name: 'off_schema',
      title: 'Off schema',
      description: 'Answers with a result its output schema does not allow.',
      input: z.strictObject({}),
      output: z.object({ count: z.number() }),
      annotations: Annotations.query,
      tier: 'all',
      run: async () => ({ result: { count: 'many' as unknown as number } }),
    }),
    defineTool({
      name: 'hold',
      title: 'Hold',
      description: 'Waits until the test opens the gate, then answers.',
      input: z.strictObject({}),
      output: z.object({ released: z.boolean() }),
      annotations: Annotations.query,
      tier: 'all',
      run: async () => {
        held.enter();
        await held.opened;
        return { result: { released: true } };
      },
    }),
  ],
});

/** A connected in-memory client of a server over the given surfaces and principal. */
export const connect = async (
  app: App,
  selection: readonly SelectedSurface[],
  /** null: the call has no principal */
  principal: Principal | null = SYSTEM,
): Promise<Client> => {
  const factory = serverFactory({
    app,
    selection,
    transport: 'stdio',
    principalOf: () => principal ?? undefined,
    log: silent,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await factory().connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  return client;
};
