import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import {
  call,
  connectAs,
  startServer,
  withDataDir,
  type Envelope,
  type Server,
} from '../governance/serve-harness.js';
import { agentSource, userSource } from './harness.js';

/**
 * Who may do what on the intent surface, over the real path: `intentlog serve --surface intent`
 * (stateless Streamable HTTP), a bearer token per principal. A task is its starter's: another
 * actor gets, from every intent tool, exactly the answer a task that does not exist gets, and
 * appends nothing; SYSTEM may act on any task.
 */
const principals = {
  alice: { kind: 'actor', actor_id: 'alice' },
  bob: { kind: 'actor', actor_id: 'bob' },
  system: { kind: 'system' },
} as const;

type Who = keyof typeof principals;

/** What a refused call answered, without the task id the caller named (it differs by design). */
const answerOf = (e: Envelope) => ({ ok: e.ok, error: e.error, project_id: e.project_id });

/** Every task-scoped intent tool, with arguments that would succeed on the caller's own task. */
const everyTool = (
  task_id: string,
  claim_id: string,
  graph: unknown,
): [string, Record<string, unknown>][] => [
  ['intent_get_snapshot', { task_id }],
  ['intent_list_candidates', { task_id }],
  ['intent_export', { task_id, format: 'summary' }],
  ['intent_export', { task_id, format: 'graph' }],
  [
    'intent_add_explicit',
    { task_id, statement: 'Bob says ship it', basis: 'direct_statement', source_ref: userSource },
  ],
  [
    'intent_add_explicit',
    {
      task_id,
      statement: 'Bob confirms',
      basis: 'confirmed_candidate',
      confirms_claim_id: claim_id,
      source_ref: userSource,
    },
  ],
  [
    'intent_add_inference',
    { task_id, statement: 'Bob infers', confidence: 0.5, source_ref: agentSource },
  ],
  [
    'intent_add_evidence',
    {
      task_id,
      statement: 'Bob has evidence',
      source_ref: { kind: 'tool_result', sha256: 'b'.repeat(64) },
    },
  ],
  [
    'intent_mark_unknown',
    { task_id, statement: 'Bob wonders', affects_decision: 'scope', source_ref: agentSource },
  ],
  [
    'intent_mark_dispute',
    { task_id, statement: 'Bob disagrees', claim_ids: [claim_id], source_ref: agentSource },
  ],
  [
    'intent_replace_claim',
    {
      task_id,
      supersedes: [claim_id],
      claim: {
        epistemic_status: 'explicit',
        basis: 'direct_statement',
        statement: 'Bob replaces it',
        source_ref: userSource,
      },
    },
  ],
  ['intent_invalidate', { task_id, claim_id, reason: 'Bob wants it gone', source_ref: userSource }],
  ['intent_import', { task_id, graph }],
  ['intent_set_mode', { task_id, mode: 'off' }],
  ['intent_set_mode', { task_id, mode: 'private', host_session_id: 'bob-session' }],
  ['intent_delete', { task_id, claim_id, confirmation: `DELETE CLAIM ${claim_id}` }],
  ['intent_delete', { task_id, confirmation: `DELETE TASK ${task_id}` }],
  ['intent_start_task', { task_id }],
];

describe('intent authorization: two actors and SYSTEM over HTTP with tokens', () => {
  let root = '';
  let server: Server | undefined;
  const clients = {} as Record<Who, Client>;
  let release = () => {};
  let finished: Promise<void> = Promise.resolve();

  /** A call as one principal, every one naming the project root explicitly. */
  const as = (who: Who, name: string, args: Record<string, unknown> = {}) =>
    call(clients[who], name, { project_root: root, ...args });
  const ok = async (who: Who, name: string, args: Record<string, unknown> = {}) => {
    const envelope = await as(who, name, args);
    if (!envelope.ok) throw new Error(`${who} ${name}: ${JSON.stringify(envelope.error)}`);
    return envelope;
  };

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'intentlog-intent-root-'));
    await new Promise<void>((ready, fail) => {
      finished = withDataDir(principals, async (dir, tokens) => {
        // actors name project directories only where the server allows them (root-policy.ts)
        server = await startServer(dir, { args: ['--surface', 'intent', '--project-root', root] });
        try {
          for (const who of Object.keys(principals) as Who[])
            clients[who] = await connectAs(server.url, tokens[who]!);
          ready();
          await new Promise<void>((resolve) => (release = resolve));
        } finally {
          for (const c of Object.values(clients)) await c.close();
          await server.stop();
        }
      }).catch((error: unknown) => fail(error));
    });
  });
  after(async () => {
    release();
    await finished;
    await rm(root, { recursive: true, force: true });
  });

  it('another actor reaches none of a task: every tool answers as for a missing task, and nothing is appended', async () => {
    // Given alice's task with a long-term candidate claim
    const started = await ok('alice', 'intent_start_task', {
      claims: [
        {
          epistemic_status: 'explicit',
          basis: 'direct_statement',
          statement: 'Alice wants the export to stay private',
          source_ref: userSource,
        },
      ],
    });
    const task = started.result!.task_id as string;
    const [first] = started.result!.claims as { claim_id: string }[];
    const graph = (await ok('alice', 'intent_export', { task_id: task, format: 'graph' })).result!
      .graph;
    const missing = randomUUID();
    const before = await ok('alice', 'intent_add_inference', {
      task_id: task,
      statement: 'Alice infers a deadline',
      confidence: 0.4,
      source_ref: agentSource,
    });

    // When bob calls every intent tool on it, and on a task that does not exist
    for (const [name, args] of everyTool(task, first!.claim_id, graph)) {
      const onAlice = await as('bob', name, args);
      const onMissing = await as(
        'bob',
        name,
        JSON.parse(JSON.stringify(args).replaceAll(task, missing)) as Record<string, unknown>,
      );
      // Then each answer is the missing task's answer
      assert.equal(onAlice.ok, false, `${name} ${JSON.stringify(args)} reached alice's task`);
      assert.equal(onAlice.error!.code, 'TASK_NOT_FOUND', name);
      assert.deepEqual(answerOf(onAlice), answerOf(onMissing), name);
      assert.doesNotMatch(JSON.stringify(onAlice), /Alice wants/, name);
    }

    // And nothing was appended in between: alice's next single event follows her last
    const after = await ok('alice', 'intent_add_inference', {
      task_id: task,
      statement: 'Alice infers a second thing',
      confidence: 0.4,
      source_ref: agentSource,
    });
    assert.equal(after.position, before.position! + 1);
    const snapshot = (await ok('alice', 'intent_get_snapshot', { task_id: task })).result!
      .snapshot as { active_claims: number; mode: string };
    assert.deepEqual([snapshot.active_claims, snapshot.mode], [3, 'on']);
  });

  it('a request_id names the caller’s own task: the same id gives two actors two tasks', async () => {
    const alice = await ok('alice', 'intent_start_task', { request_id: 'start-shared' });
    const bob = await ok('bob', 'intent_start_task', { request_id: 'start-shared' });
    assert.notEqual(bob.result!.task_id, alice.result!.task_id);
    assert.equal(bob.result!.created, true);
    const retry = await ok('alice', 'intent_start_task', { request_id: 'start-shared' });
    assert.equal(retry.result!.task_id, alice.result!.task_id, 'a retry lands on the same task');
  });

  it('SYSTEM acts on any task; an actor’s status counts only its own tasks', async () => {
    const aliceTask = (await ok('alice', 'intent_start_task')).result!.task_id as string;
    await ok('alice', 'intent_add_explicit', {
      task_id: aliceTask,
      statement: 'Alice said this',
      basis: 'direct_statement',
      source_ref: userSource,
    });
    const read = await ok('system', 'intent_export', { task_id: aliceTask, format: 'summary' });
    assert.match(String(read.result!.summary), /Alice said this/);
    await ok('system', 'intent_add_evidence', {
      task_id: aliceTask,
      statement: 'The operator found evidence',
      source_ref: { kind: 'tool_result', sha256: 'c'.repeat(64) },
    });
    await ok('system', 'intent_start_task', { task_id: aliceTask });

    const tasksOf = async (who: Who) =>
      (await ok(who, 'intent_status')).result!.tasks as { on: number };
    const [alice, bob, all] = [
      await tasksOf('alice'),
      await tasksOf('bob'),
      await tasksOf('system'),
    ];
    assert.equal(all.on, alice.on + bob.on, 'SYSTEM counts every task, each actor only theirs');
    assert.ok(alice.on > 0 && bob.on > 0);
  });

  it('private content is its owner’s too', async () => {
    const task = (await ok('alice', 'intent_start_task')).result!.task_id as string;
    await ok('alice', 'intent_set_mode', {
      task_id: task,
      mode: 'private',
      host_session_id: 'alice-session',
    });
    await ok('alice', 'intent_add_explicit', {
      task_id: task,
      request_id: 'private-1',
      statement: 'Alice keeps this secret',
      basis: 'direct_statement',
      source_ref: userSource,
    });
    const graph = (await ok('alice', 'intent_export', { task_id: task, format: 'graph' })).result!
      .graph;
    const missing = randomUUID();
    // bob also replays alice's request_id where a tool takes one
    const keyed = /add_|mark_|replace|invalidate|import|start/;
    for (const [name, plain] of everyTool(task, randomUUID(), graph)) {
      const args = keyed.test(name) ? { ...plain, request_id: 'private-1' } : plain;
      const onAlice = await as('bob', name, args);
      const swapped = JSON.stringify(args).replaceAll(task, missing);
      const onMissing = await as('bob', name, JSON.parse(swapped) as Record<string, unknown>);
      assert.equal(onAlice.error?.code, 'TASK_NOT_FOUND', name);
      assert.deepEqual(answerOf(onAlice), answerOf(onMissing), name);
      assert.doesNotMatch(JSON.stringify(onAlice), /keeps this secret/, name);
    }
    const privateCounts = async (who: Who) =>
      (await ok(who, 'intent_status')).result!.private_control as { claims_in_memory: number };
    assert.equal((await privateCounts('bob')).claims_in_memory, 0);
    assert.equal((await privateCounts('alice')).claims_in_memory, 1);
    const own = await ok('alice', 'intent_export', { task_id: task, format: 'summary' });
    assert.match(String(own.result!.summary), /keeps this secret/);
    const operator = await ok('system', 'intent_get_snapshot', { task_id: task });
    assert.match(JSON.stringify(operator.result), /keeps this secret/);
  });

  it('a deleted task of another answers as missing, not as deleted', async () => {
    const task = (await ok('alice', 'intent_start_task')).result!.task_id as string;
    await ok('alice', 'intent_delete', { task_id: task, confirmation: `DELETE TASK ${task}` });
    assert.equal(
      (await as('alice', 'intent_get_snapshot', { task_id: task })).error!.code,
      'TASK_DELETED',
    );
    assert.equal(
      (await as('bob', 'intent_get_snapshot', { task_id: task })).error!.code,
      'TASK_NOT_FOUND',
    );
  });

  it(
    'a call with no project_root over stateless HTTP answers PROJECT_ROOT_REQUIRED instead of waiting out the 60 s roots/list',
    { timeout: 30_000 },
    async () => {
      const status = await call(clients.alice, 'intent_status', {});
      assert.equal(status.error!.code, 'PROJECT_ROOT_REQUIRED');
    },
  );
});
