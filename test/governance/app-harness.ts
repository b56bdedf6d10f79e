import { governance } from '../../src/app/governance/index.js';
import type { App } from '../../src/app/app.js';
import { openIntentlog } from '../../src/modules/index.js';
import type { GovernanceCall } from '../../src/commands/governance/run.js';
import type { Caller } from '../../src/commands/governance/roles.js';
import type { Principal } from '../../src/commands/principal.js';
import { architect, impl, impl2, lead, P, pa, pm, po, reviewer, reviewer2 } from './fixture.js';

export const cast = [po, pm, pa, architect, lead, impl, impl2, reviewer, reviewer2];

export const principal = (c: Caller): Principal =>
  c.role === 'SYSTEM' ? { kind: 'system' } : { kind: 'actor', actor_id: c.actor_id };

let keys = 0;
/** A call with a fresh idempotency key. */
export const as = (c: Caller, key = `k${++keys}`): GovernanceCall => ({
  principal: principal(c),
  idempotencyKey: key,
});

export const SYSTEM_CALL: GovernanceCall = { principal: { kind: 'system' }, idempotencyKey: 's' };

/** A memory-store app with project P and the whole cast registered. */
export const withGovernance = async <T>(body: (app: App) => Promise<T>): Promise<T> => {
  const app = await openIntentlog({ store: 'memory', dataDir: '/nonexistent' });
  try {
    await governance(app).createProject(
      { project_id: P, name: 'Acme' },
      as({ actor_id: 'system', role: 'SYSTEM' }),
    );
    for (const c of cast)
      await governance(app).registerActor(
        { project_id: P, actor_id: c.actor_id, role: c.role as never },
        as({ actor_id: 'system', role: 'SYSTEM' }),
      );
    return await body(app);
  } finally {
    await app.close();
  }
};

/** Issues WP, has `impl` claim it and submit result 1. */
export const toSubmitted = async (app: App, wp = 'WP-001') => {
  const g = governance(app);
  await g.issueWorkPackage({ project_id: P, work_package_id: wp, title: `Package ${wp}` }, as(pm));
  await g.claimWorkPackage({ project_id: P, work_package_id: wp }, as(impl));
  return g.submitResult({ project_id: P, work_package_id: wp, summary: 'done' }, as(impl));
};

/** Runs a promise that must fail with a DomainError; returns its code. */
export const codeOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
  return 'resolved';
};
