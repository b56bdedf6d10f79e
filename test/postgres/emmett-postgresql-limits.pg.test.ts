// Why src/events/postgres does not append through Emmett's own PostgreSQL store (pinned
// 0.42.0): these are the gaps docs/decisions.md records. If an upgrade closes them, this test
// fails, and the decision deserves another look.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { STREAM_DOES_NOT_EXIST, STREAM_EXISTS } from '@event-driven-io/emmett';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import { testDatabaseUrl } from './pg-test-db.js';

const outcome = (p: Promise<{ nextExpectedStreamVersion: bigint }>) =>
  p.then(
    (r) => `appended, now at ${r.nextExpectedStreamVersion}`,
    (e: { errorCode?: number }) => `rejected ${e.errorCode}`,
  );

describe('emmett-postgresql 0.42.0', () => {
  // Emmett keeps its tables in `public` and finds its functions by name in any schema, so it
  // cannot be moved to a schema of its own; unique stream names keep this test apart instead.
  const run = randomBytes(4).toString('hex');
  let store: ReturnType<typeof getPostgreSQLEventStore>;
  before(() => {
    store = getPostgreSQLEventStore(testDatabaseUrl());
  });
  after(() => store.close());

  it('does not enforce STREAM_DOES_NOT_EXIST or STREAM_EXISTS', async () => {
    const existing = `existing-${run}`;
    await store.appendToStream(existing, [{ type: 'a', data: {} }]);
    const dne = store.appendToStream(existing, [{ type: 'a', data: {} }], {
      expectedStreamVersion: STREAM_DOES_NOT_EXIST,
    });
    assert.equal(await outcome(dne), 'appended, now at 2');
    const exists = store.appendToStream(`missing-${run}`, [{ type: 'a', data: {} }], {
      expectedStreamVersion: STREAM_EXISTS,
    });
    assert.equal(await outcome(exists), 'appended, now at 1');
    // an exact stale version is enforced
    const stale = store.appendToStream(existing, [{ type: 'a', data: {} }], {
      expectedStreamVersion: 1n,
    });
    assert.equal(await outcome(stale), 'rejected 412');
  });
});
