import { governance } from '../../src/app/governance/index.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { as, toSubmitted, withGovernance } from './app-harness.js';
import { impl, P, pm, po, reviewer, WP } from './fixture.js';

const at = { project_id: P, work_package_id: WP };

describe('governance read models', () => {
  it('rebuilt from the log, they equal the ones kept live', () =>
    withGovernance(async (app) => {
      const g = governance(app);
      await toSubmitted(app);
      const { result } = await g.requestReview({ ...at, reviewer_id: reviewer.actor_id }, as(pm));
      await g.closeGate({ ...at, outcome: 'REWORK' }, as(pm));
      await g.raiseEscalation({ project_id: P, subject: 's', details: 'd' }, as(impl));
      await g.submitResult({ ...at, summary: 'again' }, as(impl));
      await g.submitReview(
        { project_id: P, review_id: result.review_id, verdict: 'APPROVE' },
        as(reviewer),
      );
      await g.closeGate({ ...at, outcome: 'ACCEPT' }, as(po));
      await toSubmitted(app, 'WP-2');
      await app.waitFor(await app.log.head());
      const dump = async () => [
        ...(await app.log.models.range({ prefix: 'work-packages/' })),
        ...(await app.log.models.range({ prefix: 'pending-actions/' })),
      ];
      const live = await dump();
      assert.ok(live.length > 5);
      await app.projections.rebuild(['work-packages', 'pending-actions']);
      assert.deepEqual(await dump(), live);
    }));
});
