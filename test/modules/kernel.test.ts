import { strict as assert } from 'node:assert';
import { it } from 'node:test';
import { contexts } from '../../src/modules/contexts.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { kernelModules } from '../../src/modules/kernel.js';
import { servedSurfaces } from '../../src/modules/surfaces.js';

// `intentlog hook` opens the log with kernel.ts instead of index.ts, `intentlog mcp` serves
// surfaces.ts: both are derived from the one registry (contexts.ts), so they cannot drift.
it('the kernel registry holds exactly the events and read models of every module', () => {
  const kernelOf = (list: typeof kernelModules) =>
    list.map((m) => ({
      name: m.name,
      events: m.events.map((e) => e.type),
      projectors: (m.projectors ?? []).map((p) => p.name),
    }));
  assert.deepEqual(kernelOf(kernelModules), kernelOf(modules));
  assert.deepEqual(
    modules.map((m) => m.name),
    contexts.map((c) => c.name),
  );
  // the very same definitions, not copies that could drift
  for (const [i, m] of modules.entries()) {
    const k = kernelModules[i]!;
    m.events.forEach((e, j) => assert.equal(k.events[j], e, `${m.name} event ${e.type}`));
    (m.projectors ?? []).forEach((p, j) => assert.equal(k.projectors?.[j], p, p.name));
  }
});

it('the surfaces registry holds exactly the surfaces of every module, in order', () => {
  const served = surfacesOf(modules);
  assert.equal(servedSurfaces.length, served.length);
  served.forEach((s, i) => assert.equal(servedSurfaces[i], s, s.name));
});

it('every context command is declared once, by the context that owns it', () => {
  const names = contexts.flatMap((c) => Object.keys(c.commands ?? {}));
  assert.deepEqual(names, [...new Set(names)]);
  assert.deepEqual(
    modules.flatMap((m) => (m.cli ?? []).map((make) => make().name())),
    names,
  );
});
