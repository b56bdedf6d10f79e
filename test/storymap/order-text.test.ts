import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { buildOrderText } from '../../src/mcp/surfaces/storymap-order-text.js';

const story = (n: number, over: Record<string, unknown> = {}) => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  key: `PB-${n}`,
  title: `Story ${n}`,
  activity: 'Share',
  effort: 'M' as const,
  priority: 'must' as const,
  status: 'todo' as const,
  build_sequence: n,
  depends_on: [] as string[],
  reason: `build sequence ${n}`,
  ...over,
});

describe('get_build_order text block', () => {
  it('carries every field of every story, one tab-separated row each', () => {
    const first = story(1);
    const second = story(2, {
      title: 'Tabs\tand "quotes"',
      depends_on: [first.id, 'gone-id'],
      reason: 'build sequence 2; after PB-1 (depends on)',
    });
    const waiting = {
      ...story(3, { build_sequence: null, reason: 'no build sequence yet' }),
      unsequenced: true as const,
      release: 2,
      story_url: null,
    };
    const text = buildOrderText(
      {
        order: [first, second],
        unsequenced: [waiting],
        generated_at: '2026-01-01T00:00:00.000Z',
        note: '1 story has no build sequence yet',
      },
      'p-1',
    );
    const lines = text.split('\n');
    assert.match(lines[0]!, /project_id p-1\tgenerated_at 2026-01-01T00:00:00.000Z/);
    assert.equal(lines[1], '1 story has no build sequence yet');
    assert.equal(
      lines[3],
      [
        '1',
        'PB-1',
        first.id,
        'Story 1',
        'Share',
        'M',
        'must',
        'todo',
        '1',
        '-',
        'build sequence 1',
      ].join('\t'),
    );
    // free text that would break the row is JSON-quoted; a dependency not listed keeps its id
    const row2 = lines[4]!.split('\t');
    assert.equal(row2[3], '"Tabs\\tand \\"quotes\\""');
    assert.ok(lines[4]!.includes('PB-1,gone-id'));
    assert.match(lines[5]!, /^unsequenced \(1; each unsequenced: true, story_url: null\)/);
    assert.equal(
      lines[6],
      [
        'PB-3',
        waiting.id,
        'Story 3',
        'Share',
        'M',
        'must',
        'todo',
        '-',
        '2',
        '-',
        'no build sequence yet',
      ].join('\t'),
    );
  });
});
