import { strict as assert } from 'node:assert';
import { auditVerify, describeFinding } from '../../src/app/audit.js';
import { openAt } from './harness.js';

/**
 * `audit verify` on a data dir: every hash chain, every schema, and every stored read model
 * equal to a replay of the log (rebuilt equals live).
 */
export const verifyAudit = async (dataDir: string, store?: string) => {
  const app = await openAt(dataDir, store);
  try {
    const report = await auditVerify({
      log: app.log,
      catalog: app.catalog,
      projectors: app.projectors,
      waitFor: (position) => app.waitFor(position),
    });
    assert.ok(report.ok, report.finding ? describeFinding(report.finding) : 'audit failed');
    return report;
  } finally {
    await app.close();
  }
};
