import { strict as assert } from 'node:assert';
import type { Client } from '@modelcontextprotocol/client';

export type Envelope = {
  ok: boolean;
  result?: Record<string, unknown> & unknown;
  error?: { code: string; message: string; details: Record<string, unknown> };
};

/** Either envelope: the nested one (`error.code`) or missions' flat HAI-MCP one (`error` a code). */
export type AnyEnvelope = {
  ok: boolean;
  error?: string | { code: string; message: string };
  message?: string;
  result?: Record<string, unknown>;
};
export const codeOf = (e: AnyEnvelope) => (typeof e.error === 'string' ? e.error : e.error?.code);
export const messageOf = (e: AnyEnvelope) =>
  typeof e.error === 'string' ? e.message : e.error?.message;

/** Calls a tool and returns its envelope (structuredContent). */
export const callOf =
  (client: Client) =>
  async (name: string, args: Record<string, unknown> = {}): Promise<Envelope> => {
    const answer = await client.callTool({ name, arguments: args });
    return answer.structuredContent as Envelope;
  };
export type Call = ReturnType<typeof callOf>;

export const ok = async (call: Call, name: string, args: Record<string, unknown> = {}) => {
  const e = await call(name, args);
  assert.ok(e.ok, `${name} failed: ${JSON.stringify(e.error)}`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads results by field
  return e.result as Record<string, any>;
};

export const refused = async (
  call: Call,
  name: string,
  args: Record<string, unknown>,
  code: string,
) => {
  const e = await call(name, args);
  assert.equal(e.ok, false, `${name} should have been refused`);
  assert.equal(e.error!.code, code, e.error!.message);
  return e.error!;
};

export const VISION = {
  users: 'parents of toddlers',
  problem: 'photos get lost',
  switch: 'one tap',
  first: 'upload',
  proof: '100 books a month',
};

/**
 * The session the issue names, up to the founder: create project → vision (the gate refuses
 * stories first) → stories with criteria → dependencies → build order. Returns what the founder
 * steps need.
 */
export const agentSession = async (call: Call) => {
  const created = await ok(call, 'create_project', {
    name: 'Photo Book',
    idea: 'Print photo books from a phone',
  });
  const project_id = created.project_id as string;
  const again = await ok(call, 'create_project', {
    name: 'Photo Book',
    idea: 'Print photo books from a phone',
  });
  assert.equal(
    again.project_id,
    project_id,
    'the same name and idea within minutes is the same project',
  );

  const gate = await refused(
    call,
    'create_stories',
    { project_id, stories: [{ title: 'Upload photos' }] },
    'constitution_required',
  );
  assert.match(gate.message, /constitution_required/);
  const vision = await ok(call, 'set_vision', { project_id, answers: VISION });
  assert.equal(vision.status, 'complete');

  const made = await ok(call, 'create_stories', {
    project_id,
    stories: [
      {
        title: 'Upload photos',
        activity: 'Collect',
        priority: 'must',
        acceptance_criteria: [
          { text: 'Given a photo, when I upload it, then it shows in the book', priority: 'must' },
        ],
      },
      {
        title: 'Arrange pages',
        activity: 'Design',
        acceptance_criteria: ['Pages can be reordered', { text: 'Layout saves', priority: 'must' }],
      },
      {
        title: 'Order the book',
        activity: 'Buy',
        release_order: 2,
        acceptance_criteria: [{ text: 'Payment succeeds', priority: 'must' }],
      },
      { title: 'upload PHOTOS' },
    ],
  });
  assert.equal(made.created, 3);
  assert.deepEqual(made.skipped_duplicates, ['upload PHOTOS']);
  const [upload, arrange, order] = made.stories as { id: string; key: string }[];
  assert.deepEqual([upload!.key, arrange!.key, order!.key], ['PB-1', 'PB-2', 'PB-3']);

  const list = await ok(call, 'list_stories', { project_id });
  const versions = Object.fromEntries(
    (list.stories as { id: string; version: number }[]).map((s) => [s.id, s.version]),
  );
  await ok(call, 'update_stories', {
    project_id,
    stories: [
      {
        id: arrange!.id,
        expected_version: versions[arrange!.id],
        dependencies: [upload!.id],
        build_sequence: 1,
      },
      {
        id: order!.id,
        expected_version: versions[order!.id],
        dependencies: [arrange!.id],
        build_sequence: 2,
      },
      { id: upload!.id, build_sequence: 3 },
    ],
  });
  const cycle = await refused(
    call,
    'update_stories',
    { project_id, stories: [{ id: upload!.id, dependencies: [order!.id] }] },
    'invalid_argument',
  );
  assert.match(cycle.message, /Dependency cycle: PB-1 → PB-3 → PB-2 → PB-1/);
  const stale = await refused(
    call,
    'update_stories',
    { project_id, stories: [{ id: upload!.id, expected_version: 0, title: 'x' }] },
    'VERSION_CONFLICT',
  );
  assert.equal((stale.details.stale_stories as unknown[]).length, 1);

  const built = await ok(call, 'get_build_order', { project_id });
  assert.deepEqual(
    (built.order as { key: string }[]).map((o) => o.key),
    ['PB-1', 'PB-2', 'PB-3'],
    'PB-1 first: PB-2 depends on it',
  );
  return { project_id, upload: upload!, arrange: arrange!, order: order! };
};
