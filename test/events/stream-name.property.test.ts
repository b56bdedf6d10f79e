import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseStreamName, streamName } from '../../src/events/index.js';

// Every legal id: letters, digits and . _ : / - (the contracts' id rule), up to 128 chars.
const legalId = fc.stringMatching(/^[A-Za-z0-9._:/-]{1,128}$/);

describe('stream names', () => {
  it('round-trip every legal id, including ids with ":" and "/"', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z_]{1,20}$/), legalId, legalId, (type, project, id) => {
        const parsed = parseStreamName(
          streamName({ aggregateType: type, projectId: project, aggregateId: id }),
        );
        assert.deepEqual(parsed, { aggregateType: type, projectId: project, aggregateId: id });
      }),
    );
  });

  it('never give two different id pairs the same name', () => {
    fc.assert(
      fc.property(legalId, legalId, legalId, legalId, (p1, a1, p2, a2) => {
        fc.pre(p1 !== p2 || a1 !== a2);
        const name = (p: string, a: string) =>
          streamName({ aggregateType: 't', projectId: p, aggregateId: a });
        assert.notEqual(name(p1, a1), name(p2, a2));
      }),
    );
  });
});
