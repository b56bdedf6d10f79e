import { describe } from 'node:test';
import type { OpenStore } from './harness.js';
import { chainAndSealingTests } from './suites/chain-sealing.js';
import { idempotencyTests } from './suites/idempotency.js';
import { liveTests } from './suites/live-catalog-models.js';
import { multiStreamTests } from './suites/multi-stream.js';
import { orderingTests } from './suites/ordering.js';
import { restartTests } from './suites/restart.js';
import { sealedModelTests } from './suites/sealed-models.js';
import { snapshotTests } from './suites/snapshots.js';
import { versionTests } from './suites/versions.js';

export type { OpenStore } from './harness.js';

/**
 * The store conformance suite: every EventLog implementation runs it in one line, the way
 * abstract-level ships its compliance tests. `open` must return a fresh, empty log each call
 * (it is called once per test), using the catalog it is given (the open catalog by default).
 */
export const eventLogConformance = (name: string, open: OpenStore): void => {
  describe(`EventLog conformance: ${name}`, () => {
    versionTests(open);
    orderingTests(open);
    idempotencyTests(open);
    multiStreamTests(open);
    chainAndSealingTests(open);
    liveTests(open);
    sealedModelTests(open);
    restartTests(open);
    snapshotTests(open);
  });
};
