import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listTools, weigh } from '../../bench/tool-weight.js';
import { servedSurfaces } from '../../src/modules/surfaces.js';
import { intentlogArgs } from '../support/intentlog-bin.js';

/**
 * What a model pays to see the tools (issue 42): every surface at every set, listed over stdio
 * as a host lists them, weighs at most 1,200 bytes a tool on average (name, description and
 * input schema); listed again with `--read-only`, it shows only tools that change nothing, and
 * exactly those of the full list.
 */
const BUDGET = 1_200;
const cli = intentlogArgs([]);
const specs = servedSurfaces.flatMap((s) => s.tiers.map((tier) => `${s.name}:${tier}`));

describe('tool lists a model can afford', () => {
  for (const spec of specs)
    it(`${spec}: ≤ ${BUDGET} bytes a tool; --read-only lists only its readOnlyHint tools`, async () => {
      const full = await listTools(cli, spec);
      const weight = weigh(spec, full);
      assert.ok(weight.perTool <= BUDGET, `${spec}: ${JSON.stringify(weight)}`);
      const readOnly = await listTools(cli, spec, ['--read-only']);
      assert.ok(readOnly.length >= 1, `${spec} --read-only lists no tool`);
      assert.deepEqual(
        readOnly.map((t) => [t.name, t.annotations?.readOnlyHint]),
        full.filter((t) => t.annotations?.readOnlyHint === true).map((t) => [t.name, true]),
      );
    });
});
