import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import type { App } from '../../src/app/app.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { connect, probeSurface, withApp } from './harness.js';
import { modules, surfacesOf } from '../../src/modules/index.js';

const allSurfaces = surfacesOf(modules);

type Envelope = {
  ok: boolean;
  operation: string;
  project_id: string | null;
  schema_version: number;
  result?: Record<string, unknown>;
  error?: { code: string; message: string; details: Record<string, unknown> };
};

const ajv = new AjvJsonSchemaValidator();

/** Calls a tool and checks its structuredContent against the output schema tools/list declared. */
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === name);
  assert.ok(tool?.outputSchema, `${name} declares an output schema`);
  const result = await client.callTool({ name, arguments: args });
  const verdict = ajv.getValidator(tool.outputSchema)(result.structuredContent);
  assert.ok(verdict.valid, `${name}: ${verdict.errorMessage}`);
  const text = result.content as { type: string; text: string }[];
  assert.equal(text[0]?.type, 'text');
  // the text block repeats the envelope for hosts that show only text
  assert.deepEqual(
    JSON.parse(text[0].text.split('\n').slice(1).join('\n')),
    result.structuredContent,
  );
  return { isError: result.isError === true, envelope: result.structuredContent as Envelope };
};

const withProbe = (body: (client: Client, app: App) => Promise<void>) =>
  withApp(async (app) => {
    const client = await connect(app, [{ surface: probeSurface(), tier: 'all' }]);
    try {
      await body(client, app);
    } finally {
      await client.close();
    }
  });

describe('the tool adapter', () => {
  it('wraps a result in the envelope, with the project it acted on', () =>
    withProbe(async (client) => {
      const { isError, envelope } = await call(client, 'echo', { text: 'hi', project_id: 'p1' });
      assert.equal(isError, false);
      assert.deepEqual(envelope, {
        ok: true,
        schema_version: 1,
        operation: 'echo',
        project_id: 'p1',
        result: { text: 'hi' },
      });
    }));

  it('answers arguments off the schema with a structured invalid_argument, not a protocol error', () =>
    withProbe(async (client) => {
      const unknownKey = await call(client, 'echo', { text: 'hi', colour: 'red' });
      assert.equal(unknownKey.isError, true);
      assert.equal(unknownKey.envelope.error?.code, 'invalid_argument');
      assert.match(unknownKey.envelope.error!.message, /colour/);
      const empty = await call(client, 'echo', { text: '' });
      assert.equal(empty.envelope.error?.code, 'invalid_argument');
      const issues = empty.envelope.error!.details.issues as { path: string[] }[];
      assert.deepEqual(issues[0]?.path, ['text']);
    }));

  it('turns a DomainError into its code, message and details', () =>
    withProbe(async (client) => {
      const { isError, envelope } = await call(client, 'refuse', { project_id: 'p9' });
      assert.equal(isError, true);
      assert.equal(envelope.ok, false);
      assert.equal(envelope.project_id, 'p9');
      assert.deepEqual(envelope.error, {
        code: 'conflict',
        message: 'already claimed',
        details: { claimed_by: 'alice' },
      });
    }));

  it('reports anything else as internal, without its message', () =>
    withProbe(async (client) => {
      const { envelope } = await call(client, 'crash');
      assert.equal(envelope.error?.code, 'internal');
      assert.doesNotMatch(JSON.stringify(envelope), /postgres:|secret/);
    }));

  it('refuses to answer with a result off its declared output schema', () =>
    withProbe(async (client) => {
      const { isError, envelope } = await call(client, 'off_schema');
      assert.equal(isError, true);
      assert.equal(envelope.error?.code, 'internal');
    }));

  it('refuses a call without a principal as forbidden', () =>
    withApp(async (app) => {
      const client = await connect(app, [{ surface: probeSurface(), tier: 'all' }], null);
      const { envelope } = await call(client, 'echo', { text: 'x' });
      assert.equal(envelope.error?.code, 'forbidden');
      await client.close();
    }));

  it('serves only the tools of the tier asked for', () =>
    withApp(async (app) => {
      const client = await connect(app, [{ surface: probeSurface(), tier: 'core' }]);
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        ['echo'],
      );
      await client.close();
    }));
});

describe('the system surface', () => {
  it('whoami names the principal and its memberships', () =>
    withApp(async (app) => {
      const system = { principal: { kind: 'system' as const } };
      await app.projects.create({ project_id: 'alpha', name: 'Alpha' }, system);
      await app.projects.registerActor(
        { project_id: 'alpha', actor_id: 'alice', role: 'PO', display_name: null },
        system,
      );
      const client = await connect(app, resolveSurfaces(allSurfaces, 'system'), {
        kind: 'actor',
        actor_id: 'alice',
      });
      const { envelope } = await call(client, 'whoami');
      assert.deepEqual(envelope.result, {
        principal: { kind: 'actor', actor_id: 'alice' },
        memberships: [{ project_id: 'alpha', roles: { governance: 'PO' } }],
      });
      await client.close();
    }));

  it('whoami keeps apart actors whose ids share a prefix up to a slash', () =>
    withApp(async (app) => {
      const system = { principal: { kind: 'system' as const } };
      for (const [project_id, actor_id] of [
        ['alpha', 'a/b'],
        ['beta', 'a'],
      ] as const) {
        await app.projects.create({ project_id, name: project_id }, system);
        await app.projects.registerActor({ project_id, actor_id, role: 'PM' }, system);
      }
      const client = await connect(app, resolveSurfaces(allSurfaces, 'system'), {
        kind: 'actor',
        actor_id: 'a',
      });
      const { envelope } = await call(client, 'whoami');
      assert.deepEqual((envelope.result as { memberships: unknown }).memberships, [
        { project_id: 'beta', roles: { governance: 'PM' } },
      ]);
      await client.close();
    }));

  it('server_info reports the surfaces served and the log head', () =>
    withApp(async (app) => {
      const client = await connect(app, resolveSurfaces(allSurfaces, 'system'));
      const head = await app.log.head();
      const { envelope } = await call(client, 'server_info');
      assert.equal(envelope.result?.log_head, head);
      assert.deepEqual(envelope.result?.surfaces, [
        { name: 'system', tier: 'all', tools: ['whoami', 'server_info'] },
      ]);
      const resource = await client.readResource({ uri: 'intentlog://server/info' });
      const text = (resource.contents[0] as { text: string }).text;
      assert.deepEqual(JSON.parse(text), envelope.result);
      const prompt = await client.getPrompt({ name: 'intentlog_orient' });
      assert.match(JSON.stringify(prompt.messages), /whoami/);
      await client.close();
    }));
});
