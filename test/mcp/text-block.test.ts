import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { contractArgs, withMissions } from '../missions/harness.js';
import { connect, withApp } from './harness.js';

/**
 * MCP's structured-output rule: the text block carries the serialized JSON of
 * `structuredContent`. On the missions and intent surfaces it is exactly that (HAI-MCP clients
 * read `json.loads(content[0].text)`); the other surfaces keep their summary line.
 */

type Called = { content: { type: string; text: string }[]; structuredContent?: unknown };

const textOf = (answer: unknown) => {
  const { content } = answer as Called;
  assert.equal(content.length, 1, 'one content block');
  assert.equal(content[0]!.type, 'text');
  return content[0]!.text;
};

describe('the text block', () => {
  it('missions: the text is the flat envelope, equal to the structured content', () =>
    withMissions(async ({ client, dirs }) => {
      const opened = await client.callTool({
        name: 'hai_open_mission',
        arguments: contractArgs(dirs.project),
      });
      const parsed = JSON.parse(textOf(opened)) as Record<string, unknown>;
      assert.deepEqual(parsed, opened.structuredContent);
      assert.equal(parsed.ok, true);
      assert.match(String(parsed.mission_id), /.+/, 'mission_id at the top level');
      assert.equal(parsed.status, 'active');

      const refused = await client.callTool({
        name: 'hai_open_mission',
        arguments: contractArgs(dirs.project),
      });
      assert.equal(refused.isError, true);
      const error = JSON.parse(textOf(refused)) as Record<string, unknown>;
      assert.deepEqual(error, refused.structuredContent);
      assert.equal(error.ok, false);
      assert.equal(error.error, 'active_mission_exists', 'the error is a code string');
      assert.equal(typeof error.message, 'string');
      assert.equal(error.active_mission_id, parsed.mission_id, 'details at the top level');
    }));

  it('missions: an argument error is a flat invalid_args', () =>
    withMissions(async ({ client }) => {
      const bad = await client.callTool({ name: 'hai_park', arguments: { text: 7 } });
      const parsed = JSON.parse(textOf(bad)) as Record<string, unknown>;
      assert.deepEqual(parsed, bad.structuredContent);
      assert.equal(parsed.error, 'invalid_args');
    }));

  it('intent: the text is the envelope’s JSON, its shape unchanged', () =>
    withApp(async (app) => {
      const client = await connect(app, resolveSurfaces(surfacesOf(modules), 'intent'));
      try {
        const status = await client.callTool({
          name: 'intent_status',
          arguments: { project_root: app.dataDir },
        });
        const parsed = JSON.parse(textOf(status)) as Record<string, unknown>;
        assert.deepEqual(parsed, status.structuredContent);
        assert.equal(parsed.ok, true, JSON.stringify(parsed));
        assert.equal(typeof parsed.result, 'object', 'intent keeps `result`');
        const bad = await client.callTool({ name: 'intent_get_snapshot', arguments: {} });
        const error = JSON.parse(textOf(bad)) as { error: { code: string } };
        assert.deepEqual(error, bad.structuredContent);
        assert.equal(error.error.code, 'INVALID_ARGUMENT', 'intent keeps its error object');
      } finally {
        await client.close();
      }
    }));

  it('governance: a summary line, then the JSON (unchanged)', () =>
    withApp(async (app) => {
      const client = await connect(app, resolveSurfaces(surfacesOf(modules), 'governance'));
      try {
        const bad = await client.callTool({ name: 'get_project', arguments: {} });
        const [summary, ...json] = textOf(bad).split('\n');
        assert.match(summary!, /get_project failed/);
        assert.deepEqual(JSON.parse(json.join('\n')), bad.structuredContent);
      } finally {
        await client.close();
      }
    }));
});
