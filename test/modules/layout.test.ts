import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/*
 * The layout of docs/architecture.md: in every layer, one folder per context, and a context is
 * told by its folder, never by a file name's prefix (issue 29).
 */
const src = fileURLToPath(new URL('../../src', import.meta.url));
const CONTEXTS = ['project', 'governance', 'storymap', 'intent', 'missions'];
const LAYERS = readdirSync(src, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const PREFIXED = new RegExp(`^(${CONTEXTS.join('|')})[-_]`);

/** Every file below `dir`, as paths under src/. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => relative(src, join(d.parentPath, d.name)));

describe('the layout: one folder per context in every layer', () => {
  it('has the layers of the design', () => {
    for (const layer of ['events', 'commands', 'projections', 'app', 'mcp', 'web', 'cli'])
      assert.ok(LAYERS.includes(layer), layer);
  });

  it("keeps no context's prefix: not inside its own folder, not at a layer's root", () => {
    const prefixed = LAYERS.flatMap((layer) => filesUnder(join(src, layer))).filter((path) => {
      const [, folder, ...rest] = path.split('/');
      const name = path.split('/').at(-1)!;
      // in a context's folder its own prefix is the one left over (`storymap/project-tools` is
      // the story map's tools for its projects); outside every context folder, any context's
      const own = rest.length > 0 && CONTEXTS.includes(folder!) ? folder : undefined;
      return own ? name.startsWith(`${own}-`) : PREFIXED.test(name);
    });
    assert.deepEqual(prefixed, []);
  });

  it('gives each context a folder of the same name in the layers that hold it', () => {
    for (const context of CONTEXTS) {
      const holding = LAYERS.filter((layer) => readdirSync(join(src, layer)).includes(context));
      // every context has its events, deciders, read models, services and pages
      for (const layer of ['events', 'commands', 'projections', 'app', 'web'])
        assert.ok(holding.includes(layer), `${layer}/${context}`);
    }
  });
});
