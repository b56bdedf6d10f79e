import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { auditVerify } from '../../src/app/audit.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { connect, withApp } from '../mcp/harness.js';

const KERNEL_CODES = [
  'forbidden',
  'not_found',
  'invalid_argument',
  'invalid_state',
  'conflict',
  'not_configured',
  'unavailable',
];
const RUNS = 300;

// Text as an attacker or a careless client sends it: any UTF-16 unit (lone surrogates too),
// astral graphemes, NUL and controls, reserved names, and the ids that exist.
const unit = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  fc.constantFrom('\u0000', '\n', '\ud800', '\udfff', '😀', ' '),
);
const text = fc.oneof(
  { arbitrary: fc.string({ unit, maxLength: 40 }), weight: 3 },
  fc.constantFrom(
    'acme',
    'WP-1',
    'ivan',
    'system',
    '__proto__',
    '',
    'PO',
    'IMPLEMENTER',
    'APPROVED',
  ),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: text, weight: 6 },
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(text, { maxLength: 3 }),
  fc.dictionary(text, text, { maxKeys: 2 }),
);

type Schema = { properties?: Record<string, unknown>; required?: string[] };

/** Arguments for a tool: its own properties, each present most of the time, now and then an extra. */
const argsFor = (schema: Schema): fc.Arbitrary<Record<string, unknown>> => {
  const names = Object.keys(schema.properties ?? {});
  const members = Object.fromEntries(
    names.map((n) => [n, fc.option(value, { nil: undefined, freq: 6 })]),
  );
  return fc
    .tuple(fc.record(members), fc.option(fc.tuple(text, value), { freq: 8 }))
    .map(([args, extra]) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(args)) if (v !== undefined) out[k] = v;
      // an own property even for `__proto__`, as JSON.parse gives it (an assignment would set
      // the prototype instead, and the client then refuses to send the arguments at all)
      if (extra)
        Object.defineProperty(out, extra[0], {
          value: extra[1],
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return out;
    });
};

type Answer = { ok?: boolean; error?: { code: string; message: string } };

describe('every governance tool, fuzzed through the real MCP adapter (issue 19)', () => {
  it('answers structured, writes nothing on error, and the log audits clean after', () =>
    withApp(async (app) => {
      const client = await connect(app, resolveSurfaces(surfacesOf(modules), 'governance'));
      await client.callTool({
        name: 'create_project',
        arguments: { project_id: 'acme', name: 'Acme', idempotency_key: 'c' },
      });
      for (const [actor_id, role] of [
        ['ivan', 'IMPLEMENTER'],
        ['pat', 'PM'],
        ['olivia', 'PO'],
      ])
        await client.callTool({
          name: 'register_actor',
          arguments: { project_id: 'acme', actor_id, role, idempotency_key: `r-${actor_id}` },
        });
      const { tools } = await client.listTools();
      const call = fc.oneof(
        ...tools.map((t) =>
          argsFor(t.inputSchema as Schema).map((args) => ({ name: t.name, args })),
        ),
      );
      let errors = 0;
      await fc.assert(
        fc.asyncProperty(call, async ({ name, args }) => {
          const head = await app.log.head();
          const result = await client.callTool({ name, arguments: args });
          const answer = result.structuredContent as Answer | undefined;
          assert.ok(
            answer && typeof answer.ok === 'boolean',
            `${name}: no envelope: ${JSON.stringify(result)}`,
          );
          if (answer.ok) return;
          errors++;
          assert.equal(result.isError, true);
          assert.ok(
            KERNEL_CODES.includes(answer.error!.code),
            `${name}: ${JSON.stringify(answer.error)} for ${JSON.stringify(args)}`,
          );
          assert.equal(await app.log.head(), head, `${name} wrote on error`);
        }),
        { numRuns: RUNS },
      );
      assert.ok(
        errors > RUNS / 3,
        `only ${errors} of ${RUNS} calls were refused: the fuzz is too tame`,
      );
      await client.close();
      const report = await auditVerify({
        log: app.log,
        catalog: app.catalog,
        projectors: app.projectors,
        waitFor: app.waitFor,
      });
      assert.equal(report.ok, true, JSON.stringify(report.finding));
    }));
});
