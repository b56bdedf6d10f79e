import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { SurfaceError, checkSurface, resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { selectSurfaces } from '../../src/mcp/surfaces/select.js';
import { systemSurface } from '../../src/mcp/surfaces/system.js';
import { Annotations, defineTool, type Surface } from '../../src/mcp/tool.js';
import { connect, probeSurface, withApp } from './harness.js';
import { modules, surfacesOf } from '../../src/modules/index.js';

const allSurfaces = surfacesOf(modules);

const registry = (...list: Surface[]) => new Map(list.map((s) => [s.name, s]));

/** A second surface that also defines `whoami`, as storymap and governance both define create_project. */
const clashing: Surface = {
  ...probeSurface(),
  name: 'other',
  tools: [
    defineTool({
      name: 'whoami',
      title: 'Who',
      description: 'A second whoami.',
      input: z.strictObject({}),
      output: z.object({}),
      annotations: Annotations.query,
      tier: 'all',
      run: async () => ({ result: {} }),
    }),
  ],
};

describe('every registered surface', () => {
  for (const surface of allSurfaces)
    it(`${surface.name}: passes the definition rules`, () => checkSurface(surface));

  it('lists tools whose JSON schemas strict hosts accept, with honest annotations', () =>
    withApp(async (app) => {
      const all = allSurfaces.map((surface) => ({
        surface,
        tier: surface.tiers.at(-1)!,
      }));
      // serve each surface alone: two of them may clash by design
      for (const selected of all) {
        const client = await connect(app, [selected]);
        const { tools } = await client.listTools();
        assert.equal(tools.length, selected.surface.tools.length);
        for (const tool of tools) {
          assert.match(tool.name, /^[a-z0-9_]+$/);
          assert.ok(tool.description && tool.description.length > 20, `${tool.name} description`);
          const input = tool.inputSchema as Record<string, unknown>;
          assert.equal(input.type, 'object', tool.name);
          for (const key of ['anyOf', 'oneOf', 'allOf', 'not', '$ref'])
            assert.ok(!(key in input), `${tool.name}: top-level ${key} in its input schema`);
          assert.equal(input.additionalProperties, false, `${tool.name} accepts unknown keys`);
          assert.equal((tool.outputSchema as { type?: string } | undefined)?.type, 'object');
          const a = tool.annotations!;
          assert.equal(a.openWorldHint, false, tool.name);
          for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint'] as const)
            assert.equal(typeof a[hint], 'boolean', `${tool.name}.${hint}`);
          if (a.readOnlyHint) assert.equal(a.destructiveHint, false, tool.name);
        }
        const { prompts } = await client.listPrompts();
        for (const p of prompts) assert.ok(p.description, `prompt ${p.name} has a description`);
        await client.close();
      }
    }));
});

describe('--surface', () => {
  it('defaults each surface to its default tier and accepts name:tier', () => {
    const reg = registry(systemSurface, probeSurface());
    assert.deepEqual(
      selectSurfaces('system, probe:core', reg).map((s) => [s.surface.name, s.tier]),
      [
        ['system', 'all'],
        ['probe', 'core'],
      ],
    );
  });

  it('refuses two surfaces that define the same tool, naming the tool and both surfaces', () => {
    const reg = registry(systemSurface, clashing);
    assert.throws(
      () => selectSurfaces('system,other', reg),
      (e: unknown) =>
        e instanceof SurfaceError &&
        /"system"/.test(e.message) &&
        /"other"/.test(e.message) &&
        /tool "whoami"/.test(e.message),
    );
  });

  it('refuses unknown surfaces and tiers, and a surface named twice', () => {
    assert.throws(
      () => resolveSurfaces(allSurfaces, 'nope'),
      /unknown surface "nope"; known: system/,
    );
    assert.throws(
      () => resolveSurfaces(allSurfaces, 'system:gold'),
      /no tier "gold"; its tiers: all/,
    );
    assert.throws(() => resolveSurfaces(allSurfaces, 'system,system'), /named twice/);
    assert.throws(() => resolveSurfaces(allSurfaces, ' , '), /no surface/);
  });

  it('refuses a malformed definition before serving it', () => {
    const base = probeSurface();
    const bad = (tools: Surface['tools']): Surface => ({ ...base, tools });
    const echo = base.tools[0]!;
    assert.throws(() => checkSurface(bad([{ ...echo, name: 'Echo-Tool' }])), /not \[a-z0-9_\]\+/);
    assert.throws(() => checkSurface(bad([{ ...echo, description: ' ' }])), /no description/);
    assert.throws(() => checkSurface(bad([{ ...echo, tier: 'gold' }])), /unknown tier/);
    assert.throws(
      () => checkSurface(bad([{ ...echo, input: z.object({ text: z.string() }) }])),
      /not a z\.strictObject/,
    );
    assert.throws(() => checkSurface(bad([echo, echo])), /defined twice/);
  });
});
