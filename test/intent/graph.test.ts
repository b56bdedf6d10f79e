import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { graphJsonSchema, importClaims } from '../../src/commands/intent/graph.js';
import { claim, NOW } from './fixture.js';

const SCHEMA = new URL('../../docs/intent-graph.schema.json', import.meta.url);

const node = (id: string, over: Record<string, unknown> = {}) => {
  const { import_id: _i, ...body } = claim(id, 'inferred');
  return { ...body, life: 'active', ...over };
};
const graph = (claims: unknown[]) => ({
  format: 'intentlog.intent-graph',
  format_version: 1,
  exported_at: NOW,
  task: { task_id: 't', mode: 'on' },
  incomplete_history: false,
  claims,
});
let next = 0;
const facts = { import_id: 'imp', newId: () => `new-${next++}` };

describe('intent graph', () => {
  it('the published JSON Schema is the one the import validates with', async () =>
    assert.deepEqual(JSON.parse(await readFile(SCHEMA, 'utf8')), graphJsonSchema()));

  it('imports with fresh ids, provenance explicit_import, supersession kept in order', () => {
    const { claims } = importClaims(
      graph([
        node('b', { supersedes: ['a'], valid_from: '2026-12-01T11:00:00.000Z' }),
        node('a', { life: 'superseded' }),
      ]),
      facts,
    );
    assert.deepEqual(
      claims.map((c) => [c.source_ref.kind, c.source_ref.event_id, c.import_id]),
      [
        ['explicit_import', 'import:a', 'imp'],
        ['explicit_import', 'import:b', 'imp'],
      ],
    );
    assert.deepEqual(claims[1]!.supersedes, [claims[0]!.claim_id]);
    assert.ok(claims.every((c) => c.claim_id.startsWith('new-')));
  });

  const refused: [string, unknown][] = [
    ['duplicate ids', graph([node('a'), node('a')])],
    ['a dangling reference', graph([node('a', { supersedes: ['zz'] })])],
    [
      'a cycle',
      graph([
        node('a', { life: 'superseded', supersedes: ['b'] }),
        node('b', { life: 'superseded', supersedes: ['a'] }),
      ]),
    ],
    [
      'superseding a later claim',
      graph([
        node('a', { supersedes: ['b'] }),
        node('b', { life: 'superseded', valid_from: '2027-01-01T00:00:00.000Z' }),
      ]),
    ],
    ['a non-UTC time', graph([node('a', { valid_from: '2026-12-01T10:00:00+02:00' })])],
    [
      'confidence on evidence',
      graph([
        node('a', {
          epistemic_status: 'evidence',
          source_ref: { kind: 'tool_result', event_id: 'x', sha256: null, excerpt: null },
        }),
      ]),
    ],
    ['another format', { ...graph([]), format_version: 2 }],
  ];
  for (const [what, input] of refused)
    it(`refuses ${what}`, () =>
      assert.throws(
        () => importClaims(input, facts),
        (e: Error & { code?: string }) => e.code === 'IMPORT_INVALID',
      ));
});
