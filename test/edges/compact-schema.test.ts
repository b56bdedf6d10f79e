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

  it('an output schema keeps every field, its type and required, without descriptions', () => {
    const output = compactSchema(full, { output: true }) as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    assert.deepEqual(Object.keys(output.properties), Object.keys(Record_.shape));
    assert.deepEqual(output.required, full.required);
    assert.equal(JSON.stringify(output).includes('how many'), false);
    assert.deepEqual(output.properties.description, { type: 'string' });
    assert.deepEqual(output.properties.minimum, { type: 'number' });
  });
});
