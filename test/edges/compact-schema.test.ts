import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { compactSchema } from '../../src/mcp/compact-schema.js';

const Record_ = z.object({
  count: z.number().int().describe('how many'),
  status: z.enum(['A', 'B']).nullable(),
  when: z.string().describe('UTC ISO-8601 time').nullable(),
  details: z.record(z.string(), z.unknown()),
  // properties named like keywords are names, never dropped
  description: z.string(),
  minimum: z.number(),
});

describe('compactSchema', () => {
  it('drops `type` beside enum/const only when every value has that type', () => {
    assert.deepEqual(compactSchema({ type: 'integer', const: 2 }), { const: 2 });
    assert.deepEqual(compactSchema({ type: 'string', enum: ['a', 1] }), {
      type: 'string',
      enum: ['a', 1],
    });
    assert.deepEqual(compactSchema({ type: 'integer', const: 1.5 }), {
      type: 'integer',
      const: 1.5,
    });
  });

  const full = z.toJSONSchema(Record_);

  it('drops only what allows anything: $schema, safe-integer bounds, open records', () => {
    const input = compactSchema(full) as { properties: Record<string, Record<string, unknown>> };
    assert.equal(JSON.stringify(input).includes('9007199254740991'), false);
    assert.equal('$schema' in input, false);
    assert.deepEqual(input.properties.count, { type: 'integer', description: 'how many' });
    assert.deepEqual(input.properties.details, { type: 'object' });
    assert.deepEqual(Object.keys(input.properties), Object.keys(Record_.shape));
    assert.deepEqual((input as { required?: unknown }).required, full.required);
    assert.equal((input as { additionalProperties?: unknown }).additionalProperties, false);
  });

  it('a nullable of one type becomes a type list; a nullable enum lists null, its values its type', () => {
    const input = compactSchema(full) as { properties: Record<string, Record<string, unknown>> };
    assert.deepEqual(input.properties.status, { enum: ['A', 'B', null] });
    assert.deepEqual(input.properties.when, {
      type: ['string', 'null'],
      description: 'UTC ISO-8601 time',
    });
  });

  it('an output schema keeps every field and its type, without descriptions or required', () => {
    const output = compactSchema(full, { output: true }) as {
      properties: Record<string, Record<string, unknown>>;
      required?: string[];
    };
    assert.deepEqual(Object.keys(output.properties), Object.keys(Record_.shape));
    assert.equal(output.required, undefined, 'the server checks required fields itself');
    assert.equal(JSON.stringify(output).includes('how many'), false);
    assert.deepEqual(output.properties.description, { type: 'string' });
    assert.deepEqual(output.properties.minimum, { type: 'number' });
    // a field named like the keyword is a field
    const named = compactSchema(z.toJSONSchema(z.object({ required: z.boolean() })), {
      output: true,
    }) as { properties: Record<string, unknown> };
    assert.deepEqual(named.properties, { required: { type: 'boolean' } });
  });

  it('an id pattern of one class says its length bounds itself, the same strings', () => {
    const id = z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9._:/-]+$/);
    const schema = compactSchema(z.toJSONSchema(id)) as Record<string, unknown>;
    assert.deepEqual(schema, { type: 'string', pattern: '^[A-Za-z0-9._:/-]{1,128}$' });
    const pattern = new RegExp(schema.pattern as string);
    for (const s of ['a', 'x'.repeat(128), 'WP-001', 'p:1/2'])
      assert.equal(pattern.test(s), id.safeParse(s).success, s);
    for (const s of ['', 'x'.repeat(129), 'a b', 'é'])
      assert.equal(pattern.test(s), id.safeParse(s).success, s);
    // other bounds or patterns stay as they are
    const two = compactSchema(
      z.toJSONSchema(
        z
          .string()
          .min(2)
          .regex(/^[a-z]+$/),
      ),
    );
    assert.deepEqual(two, { type: 'string', minLength: 2, pattern: '^[a-z]+$' });
  });
});
