import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { buildOrderText } from '../../src/mcp/storymap/order-text.js';

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
  it('lists the order, one short tab-separated row per story, dependencies by key', () => {
    const first = story(1);
    const second = story(2, {
      title: 'Tabs\tand "quotes"',
      depends_on: [first.id, 'gone-id'],
      reason: 'build sequence 2; after PB-1 (depends on)',
    });
    const waiting = {
      ...story(3, {
        build_sequence: null,
        reason: 'no build sequence yet',
        status: 'ready_for_dev',
      }),
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
    assert.equal(lines[0], 'project_id p-1\tgenerated_at 2026-01-01T00:00:00.000Z');
    assert.equal(lines[1], '1 story has no build sequence yet');
    assert.match(lines[2]!, /^order \(2\): position\tkey\ttitle\tstatus\tdepends_on; /);
    assert.equal(lines[3], ['1', 'PB-1', 'Story 1', 'todo', '-'].join('\t'));
    // free text that would break the row is JSON-quoted; a dependency not listed keeps its id
    assert.equal(
      lines[4],
      ['2', 'PB-2', '"Tabs\\tand \\"quotes\\""', 'todo', 'PB-1,gone-id'].join('\t'),
    );
    assert.equal(lines[5], 'unsequenced (1): key\ttitle\tstatus\trelease\tdepends_on\treason');
    assert.equal(
      lines[6],
      ['PB-3', 'Story 3', 'ready_for_dev', '2', '-', 'no build sequence yet'].join('\t'),
    );
    assert.equal(lines.length, 7);
  });

  it('names where the fields it leaves out are', () => {
    const text = buildOrderText(
      {
        order: [story(1)],
        unsequenced: [],
        generated_at: 't',
        note: 'Every live story is sequenced.',
      },
      'p-1',
    );
    for (const field of ['id', 'activity', 'effort', 'priority', 'build_sequence', 'reason'])
      assert.ok(text.split('\n')[2]!.includes(field), field);
    assert.ok(!text.includes(story(1).id), 'ids stay in structuredContent');
  });
});
