import { strict as assert } from 'node:assert';
import { it } from 'node:test';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { kernelModules } from '../../src/modules/kernel.js';
import { servedSurfaces } from '../../src/modules/surfaces.js';

// `intentlog hook` opens the log with kernel.ts instead of index.ts: a context added to one and
// not the other would give the hook a different catalog or let its read models fall behind.
it('the kernel registry holds exactly the events and read models of every module', () => {
  const kernelOf = (list: typeof kernelModules) =>
    list.map((m) => ({
      name: m.name,
      events: m.events.map((e) => e.type),
      projectors: (m.projectors ?? []).map((p) => p.name),
    }));
  assert.deepEqual(kernelOf(kernelModules), kernelOf(modules));
  // the very same definitions, not copies that could drift
  for (const [i, m] of modules.entries()) {
    const k = kernelModules[i]!;
    m.events.forEach((e, j) => assert.equal(k.events[j], e, `${m.name} event ${e.type}`));
    (m.projectors ?? []).forEach((p, j) => assert.equal(k.projectors?.[j], p, p.name));
  }
});

// `intentlog mcp` serves the surfaces of surfaces.ts, not of index.ts: the same lists.
it('the surfaces registry holds exactly the surfaces of every module, in order', () => {
  const served = surfacesOf(modules);
  assert.equal(servedSurfaces.length, served.length);
  served.forEach((s, i) => assert.equal(servedSurfaces[i], s, s.name));
});
