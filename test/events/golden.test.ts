import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fullCatalog } from '../../src/modules/index.js';

const catalog = fullCatalog();
import { decode, GENESIS_HASH, verifyChain, type StoredRecord } from '../../src/events/index.js';
import { intentRef } from '../../src/events/intent/index.js';
import { toLogEvent } from '../../src/events/record-view.js';

// Stored bytes of old event versions, kept forever: a reader of today must still read them.
const golden = (name: string) =>
  decode<StoredRecord>(readFileSync(new URL(`../fixtures/golden/${name}`, import.meta.url)));

describe('golden fixtures of old event versions', () => {
  it('reads project.created v1 as the latest version', () => {
    const record = golden('project.created.v1.msgpack');
    assert.equal(record.schema_version, 1);
    const event = toLogEvent(record, catalog, () => undefined);
    assert.equal(event.schema_version, catalog.currentVersion('project.created'));
    assert.deepEqual(event.data, {
      project_id: 'golden',
      name: 'Golden project',
      description: null,
    });
  });

  it('still verifies its hash chain: upcasting never rewrites stored bytes', () => {
    const record = golden('project.created.v1.msgpack');
    assert.equal(verifyChain([record], GENESIS_HASH), undefined);
  });

  it('rejects data that matches no version of its schema', () => {
    assert.throws(() => catalog.upcast('project.created', 1, { name: 3 }), /does not match/);
  });

  it('reads actor.registered v2 (a missions owner) as v3, and only v3 knows the member role', () => {
    const record = golden('actor.registered.v2.msgpack');
    assert.equal(record.schema_version, 2);
    const event = toLogEvent(record, catalog, () => undefined);
    assert.equal(event.schema_version, 3);
    assert.deepEqual(event.data, {
      project_id: 'golden',
      actor_id: 'sam',
      surface: 'missions',
      role: 'owner',
      display_name: null,
      registered_by: 'sam',
    });
    const member = { ...(event.data as Record<string, unknown>), role: 'member' };
    assert.throws(() => catalog.validateVersion('actor.registered', 2, member), /does not match/);
    assert.deepEqual(catalog.validate('actor.registered', member), member);
  });

  it('reads intent tombstones v1 (claim and task ids) as v3 (refs), the chain unchanged', () => {
    const id = '6c2cf5d1-b17a-43a7-a4db-b0dd2e79566a';
    const claim = golden('intent.claim_deleted.v1.msgpack');
    assert.equal(claim.schema_version, 1);
    assert.equal(verifyChain([claim], GENESIS_HASH), undefined);
    assert.deepEqual(toLogEvent(claim, catalog, () => undefined).data, {
      project_id: 'golden',
      task_ref: intentRef('golden-task'),
      claim_ref: intentRef(id),
      deleted_at: '2026-12-01T00:00:00.000Z',
    });
    const task = golden('intent.task_deleted.v1.msgpack');
    assert.equal(verifyChain([task], GENESIS_HASH), undefined);
    assert.deepEqual(toLogEvent(task, catalog, () => undefined).data, {
      project_id: 'golden',
      task_ref: intentRef('golden-task'),
      claim_refs: [intentRef(id)],
      candidate_ids: [],
      deleted_at: '2026-12-01T00:00:00.000Z',
    });
  });
});
