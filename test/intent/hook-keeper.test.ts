import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { readSince } from '../../src/app/intent/hook-keeper.js';
import type { StoredRecord } from '../../src/events/envelope.js';

/**
 * The writer keeps a project's Hook view as the log says: it reads what came after the position
 * it had seen, then waits for the read models before writing the view. A page read after the
 * head can hold what was appended meanwhile (a root bound just after the task started); the
 * wait must cover it, or the view is written from a read model that lacks the root, and the
 * root's events, already read, never mark the view again (the Hook tests' flake, issue 33).
 */
const record = (position: number, type: string, project_id: string) =>
  ({ global_position: position, type, project_id }) as unknown as StoredRecord;

/** A log of these records whose head, read first, was `head`: the rest came while reading. */
const logOf = (head: number, records: StoredRecord[]) => ({
  head: async () => head,
  readRaw: async ({ after, limit }: { after: number; limit: number }) =>
    records.filter((r) => r.global_position > after).slice(0, limit),
});

describe('the Hook keeper reads what came after the position it had seen', () => {
  it('answers the position it read up to, past the head when a page held more', async () => {
    const records = [
      record(1, 'intent.task_started', 'p'),
      record(2, 'intent.claim_added', 'p'),
      record(3, 'project.created', 'q'),
      record(4, 'root.bound', 'q'),
      record(5, 'governance.issued', 'r'),
    ];
    const read = await readSince(logOf(2, records), 0);
    assert.equal(read.upTo, 5, 'waits for everything it marked');
    assert.deepEqual([...read.projects].sort(), ['p', 'q']);
  });

  it('reads nothing when it had seen the head, and pages through a long run', async () => {
    const many = Array.from({ length: 1203 }, (_, i) =>
      record(i + 1, 'intent.claim_added', `p${i % 3}`),
    );
    assert.deepEqual(await readSince(logOf(1203, many), 1203), { projects: new Set(), upTo: 1203 });
    const read = await readSince(logOf(1203, many), 10);
    assert.equal(read.upTo, 1203);
    assert.deepEqual([...read.projects].sort(), ['p0', 'p1', 'p2']);
  });
});
