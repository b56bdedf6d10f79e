import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/client';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { connect, withApp } from '../mcp/harness.js';
import { callOf, codeOf, messageOf, ok, VISION, type AnyEnvelope } from '../storymap/session.js';
import { withLinkedRoot } from '../storymap/local-fixture.js';

/**
 * Issue 28: a lone surrogate in a story map `project_id` answered `internal`. Text that is not
 * well-formed UTF-16 (an unpaired surrogate; JSON carries it as `"\ud800"`) is refused by the
 * tool adapter for every tool of every surface: `invalid_argument` naming the field, nothing
 * appended.
 */
const LONE = ['\ud800', '\udfff', 'a\ud83d', '\ude00b', 'x\udc00\ud800y'];
const lone = fc.oneof(
  fc.constantFrom(...LONE),
  fc
    .tuple(
      fc.string({ maxLength: 8 }),
      fc.integer({ min: 0xd800, max: 0xdfff }),
      fc.string({ maxLength: 8 }),
    )
    .map(([a, unit, b]) => a + String.fromCharCode(unit) + b)
    .filter((s) => /[\ud800-\udfff]/.test(s.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))),
);

const INVALID = ['invalid_argument', 'INVALID_ARGUMENT', 'invalid_args'];

type Schema = { properties?: Record<string, { type?: unknown }> };
const SURFACES = ['governance', 'storymap', 'storymap-local:all', 'intent', 'missions', 'system'];

const refusedNaming = (e: AnyEnvelope, field: string, what: string) => {
  assert.equal(e.ok, false, `${what} accepted ill-formed text`);
  // each surface's own word for it: intent's INVALID_ARGUMENT, missions' invalid_args
  assert.ok(INVALID.includes(codeOf(e) ?? ''), `${what}: ${JSON.stringify(e)}`);
  const message = messageOf(e) ?? '';
  assert.match(message, new RegExp(`^${field.replace(/\./g, '\\.')}: `), what);
  assert.match(message, /surrogate/, what);
};

describe('text that is not well-formed UTF-16, on every tool (issue 28)', () => {
  it('a story map project_id with a lone surrogate: invalid_argument naming it, nothing appended', () =>
    withApp(async (app) => {
      const call = callOf(await connect(app, resolveSurfaces(surfacesOf(modules), 'storymap')));
      const head = await app.log.head();
      for (const tool of ['get_status', 'get_story', 'create_stories', 'archive_project'])
        refusedNaming(
          await call(tool, { project_id: '\ud800', story_id: 'PB-1', stories: [] }),
          'project_id',
          tool,
        );
      assert.equal(await app.log.head(), head);
    }));

  it('every string argument of every tool, top level and nested', () =>
    withApp(async (app) => {
      const hosted = callOf(await connect(app, resolveSurfaces(surfacesOf(modules), 'storymap')));
      const made = await ok(hosted, 'create_project', { name: 'Photo Book', idea: 'x' });
      const project_id = made.project_id as string;
      await ok(hosted, 'set_vision', { project_id, answers: VISION });
      await withLinkedRoot(project_id, async () => {
        const clients = new Map<string, Client>();
        const tools: { spec: string; name: string; fields: string[] }[] = [];
        for (const spec of SURFACES) {
          const client = await connect(app, resolveSurfaces(surfacesOf(modules), spec));
          clients.set(spec, client);
          for (const t of (await client.listTools()).tools) {
            const props = (t.inputSchema as Schema).properties ?? {};
            const fields = Object.keys(props).filter((k) => props[k]!.type === 'string');
            if (fields.length > 0) tools.push({ spec, name: t.name, fields });
          }
        }
        assert.ok(tools.length > 80, `only ${tools.length} tools take text`);
        const head = await app.log.head();
        const pick = fc
          .constantFrom(...tools)
          .chain((t) => fc.tuple(fc.constant(t), fc.constantFrom(...t.fields), lone));
        await fc.assert(
          fc.asyncProperty(pick, async ([t, field, text]) => {
            const e = (
              await clients
                .get(t.spec)!
                .callTool({ name: t.name, arguments: { project_id, [field]: text } })
            ).structuredContent as AnyEnvelope;
            refusedNaming(e, field, `${t.name}.${field}`);
          }),
          { numRuns: 300 },
        );
        const nested = await hosted('create_stories', {
          project_id,
          stories: [{ title: 'Fine' }, { title: 'Upload', acceptance_criteria: ['ok \udc00'] }],
        });
        refusedNaming(nested, 'stories.1.acceptance_criteria.0', 'a nested string');
        const key = await hosted('set_vision', { project_id, answers: { ['pro\ud800of']: 'x' } });
        refusedNaming(key, 'answers', 'a key');
        assert.equal(await app.log.head(), head, 'a refused call appended');
        const fine = await hosted('create_stories', {
          project_id,
          stories: [{ title: 'Emoji 😀' }],
        });
        assert.equal(fine.ok, true, 'a surrogate pair is well-formed text');
      });
    }));
});
