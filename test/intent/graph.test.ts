import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import {
  graphJsonSchema,
  importClaims,
  sealGraph,
  type IntentGraph,
} from '../../src/commands/intent/graph.js';
import { claim, NOW } from './fixture.js';
import { agentSource, withDir, withIntentClient } from './harness.js';

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
    [
      'a dispute of 51 claims (intent_mark_dispute’s limit is 50)',
      graph([
        ...Array.from({ length: 51 }, (_, i) => node(`c${i}`)),
        node('d', {
          epistemic_status: 'disputed',
          confidence: null,
          disputes: Array.from({ length: 51 }, (_, i) => `c${i}`),
        }),
      ]),
    ],
    ['a transcript-shaped statement', graph([node('a', { statement: 'User: hi\nAgent: hello' })])],
    ['a credential-shaped claim id', graph([node('ghp_abcdefghijklmnopqrstuvwxyz0123')])],
    ['a path as a claim id', graph([node('../../etc/passwd')])],
    [
      'a graph changed after export (its digest no longer matches)',
      (() => {
        const sealed = sealGraph(graph([node('a')]) as Omit<IntentGraph, 'integrity'>);
        return { ...sealed, claims: [{ ...sealed.claims[0]!, statement: 'edited' }] };
      })(),
    ],
  ];
  it('redacts an imported statement and excerpt as a tool’s input', () => {
    const { claims } = importClaims(
      graph([
        node('a', {
          statement: 'Deploy with {"api_key":"value with spaces"}',
          source_ref: {
            kind: 'agent_turn',
            event_id: 'e',
            sha256: null,
            excerpt: 'password: hunter22',
          },
        }),
      ]),
      facts,
    );
    assert.doesNotMatch(JSON.stringify(claims), /value with spaces|hunter22/);
    assert.match(claims[0]!.statement, /\[REDACTED:/);
  });

  it('carries invalidated claims as history and checks a digest', () => {
    const sealed = sealGraph(
      graph([node('a', { life: 'invalidated' }), node('b')]) as Omit<IntentGraph, 'integrity'>,
    );
    const mapped = importClaims(JSON.parse(JSON.stringify(sealed)), facts);
    assert.equal(mapped.integrity_checked, true);
    assert.equal(mapped.claims.length, 2);
    assert.deepEqual(mapped.invalidated, [mapped.claims[0]!.claim_id]);
  });

  for (const [what, input] of refused)
    it(`refuses ${what}`, () =>
      assert.throws(
        () => importClaims(input, facts),
        (e: Error & { code?: string }) => e.code === 'IMPORT_INVALID',
      ));
});

describe('intent graph after a delete (in-memory MCP client, LevelDB store)', () => {
  // intent-loop PR13: views, relations and exports no longer hold a deleted claim's id
  it('an export names no deleted claim, a dispute that lost a side stands free, and it imports', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c) => {
          const task_id = String((await c.ok('intent_start_task')).task_id);
          const claim = async (statement: string) =>
            String(
              (
                await c.ok('intent_add_inference', {
                  task_id,
                  statement,
                  confidence: 0.5,
                  source_ref: agentSource,
                })
              ).claim_id,
            );
          const a = await claim('Tables are dense');
          const b = await claim('Tables are airy');
          const d = String(
            (
              await c.ok('intent_mark_dispute', {
                task_id,
                statement: 'dense or airy tables',
                claim_ids: [a, b],
                source_ref: agentSource,
              })
            ).claim_id,
          );
          const deleted = await c.ok('intent_delete', {
            task_id,
            claim_id: a,
            confirmation: `DELETE CLAIM ${a}`,
          });
          const check = deleted.verification as unknown as { export_clear: boolean };
          assert.equal(check.export_clear, true);
          const exported = await c.ok('intent_export', { task_id, format: 'graph' });
          const text = JSON.stringify(exported.graph);
          assert.ok(!text.includes(a), 'the deleted id is nowhere in the export');
          const claims = (exported.graph as unknown as { claims: GraphNode[] }).claims;
          assert.deepEqual(claims.find((x) => x.claim_id === d)?.disputes, []);

          const other = String((await c.ok('intent_start_task')).task_id);
          const imported = await c.call('intent_import', {
            task_id: other,
            graph: exported.graph,
          });
          assert.equal(imported.ok, true, JSON.stringify(imported.error));
        });
      }),
    ));
});

describe('intent import of invalidated history (in-memory MCP client, LevelDB store)', () => {
  it('an invalidated claim arrives as history: in the graph, never current', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c) => {
          const task_id = String((await c.ok('intent_start_task')).task_id);
          const infer = (statement: string) =>
            c.ok('intent_add_inference', {
              task_id,
              statement,
              confidence: 0.5,
              source_ref: agentSource,
            });
          const gone = String((await infer('Use tabs')).claim_id);
          await infer('Use two spaces');
          await c.ok('intent_invalidate', {
            task_id,
            claim_id: gone,
            reason: 'the user said spaces',
            source_ref: agentSource,
          });
          const exported = await c.ok('intent_export', { task_id, format: 'graph' });
          const other = String((await c.ok('intent_start_task')).task_id);
          const imported = await c.ok('intent_import', { task_id: other, graph: exported.graph });
          assert.equal(imported.invalidated_history, 1);
          assert.equal(imported.integrity_checked, true);
          const snap = (await c.ok('intent_get_snapshot', { task_id: other }))
            .snapshot as unknown as {
            current: { statement: string }[];
          };
          assert.deepEqual(
            snap.current.map((l) => l.statement),
            ['Use two spaces'],
          );
          const again = await c.ok('intent_export', { task_id: other, format: 'graph' });
          const lives = (
            again.graph as unknown as { claims: { statement: string; life: string }[] }
          ).claims;
          assert.equal(lives.find((l) => l.statement === 'Use tabs')?.life, 'invalidated');
        });
      }),
    ));
});

type GraphNode = { claim_id: string; disputes: string[] };
