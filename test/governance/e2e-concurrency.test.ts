import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { Principal } from '../../src/commands/principal.js';
import { call, sharedServers } from './serve-harness.js';

const P = 'race';
const CLAIMANTS = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8'];
const principals: Record<string, Principal> = {
  system: { kind: 'system' },
  pm: { kind: 'actor', actor_id: 'pm' },
  reader: { kind: 'actor', actor_id: 'reader' },
  ...Object.fromEntries(CLAIMANTS.map((id) => [id, { kind: 'actor', actor_id: id }])),
};

/** Project P with a PM, a reviewer who reads, and 8 implementers; over `system`. */
const seedProject = async (system: Client) => {
  await call(system, 'create_project', { project_id: P, name: 'race', idempotency_key: 'p' });
  const roles = {
    pm: 'PM',
    reader: 'REVIEWER',
    ...Object.fromEntries(CLAIMANTS.map((c) => [c, 'IMPLEMENTER'])),
  };
  for (const [actor_id, role] of Object.entries(roles))
    await call(system, 'register_actor', {
      project_id: P,
      actor_id,
      role,
      idempotency_key: `r-${actor_id}`,
    });
};

/** 8 claim calls at once, claimant i through server i mod n; the envelopes they answered. */
const race = async (clients: Record<string, Client>[], wp: string) => {
  await call(clients[0]!.pm!, 'issue_work_package', {
    project_id: P,
    work_package_id: wp,
    title: wp,
    idempotency_key: wp,
  });
  return Promise.all(
    CLAIMANTS.map((c, i) =>
      call(clients[i % clients.length]![c]!, 'claim_work_package', {
        project_id: P,
        work_package_id: wp,
        idempotency_key: `claim-${wp}`,
      }),
    ),
  );
};

const assertOneWinner = async (clients: Record<string, Client>[], wp: string) => {
  const answers = await race(clients, wp);
  const winners = answers.filter((a) => a.ok);
  assert.equal(winners.length, 1, JSON.stringify(answers.map((a) => a.error?.code ?? 'won')));
  assert.deepEqual(
    answers.filter((a) => !a.ok).map((a) => a.error?.code),
    Array(7).fill('invalid_state'),
  );
  const view = await call(clients.at(-1)!.reader!, 'get_work_package', {
    project_id: P,
    work_package_id: wp,
  });
  assert.equal(view.result?.claimed_by, winners[0]!.result?.claimed_by);
  const page = await call(clients[0]!.reader!, 'sync_since', { project_id: P, cursor: 0 });
  const claims = (page.result?.events as { event_type: string; aggregate_id: string }[]).filter(
    (e) => e.event_type === 'work_package.claimed' && e.aggregate_id === wp,
  );
  assert.equal(claims.length, 1);
};

describe('governance over HTTP: 8 racing claims through one `intentlog serve`', () => {
  const one = sharedServers(1, principals);
  before(async () => {
    await one.start();
    await seedProject(one.clients[0]!.system!);
  });
  after(() => one.stop());

  it('exactly one wins, every time', async () => {
    await assertOneWinner(one.clients, 'WP-1');
    await assertOneWinner(one.clients, 'WP-2');
  });
});

describe('governance over HTTP: 2 server processes on one data dir', () => {
  const two = sharedServers(2, principals);
  before(async () => {
    await two.start();
    await seedProject(two.clients[1]!.system!);
  });
  after(() => two.stop());

  it('8 claims split over both: exactly one wins', async () => {
    await assertOneWinner(two.clients, 'WP-1');
    await assertOneWinner(two.clients, 'WP-2');
  });

  it('an idempotency key replays across processes; other input under it is conflict', async () => {
    const [a, b] = two.clients;
    const args = { project_id: P, work_package_id: 'WP-9', title: 'once', idempotency_key: 'same' };
    const first = await call(a!.pm!, 'issue_work_package', args);
    const replay = await call(b!.pm!, 'issue_work_package', args);
    assert.deepEqual([first.replayed, replay.replayed], [false, true]);
    assert.deepEqual(replay.result, first.result);
    const other = await call(b!.pm!, 'issue_work_package', { ...args, title: 'twice' });
    assert.equal(other.error?.code, 'conflict');
  });

  it('a sync_since consumer paging from 0 while both append sees every event once', async () => {
    const [a, b] = two.clients;
    const writers = [a!, b!].map(async (clients, w) => {
      for (let i = 0; i < 25; i++)
        await call(clients.pm!, 'issue_work_package', {
          project_id: P,
          work_package_id: `W${w}-${i}`,
          title: 't',
          idempotency_key: `w${w}-${i}`,
        });
    });
    let writing = true;
    const finished = Promise.all(writers).finally(() => (writing = false));
    const seen: { cursor: number; aggregate_id: string; event_type: string }[] = [];
    let cursor = 0;
    for (let drained = false; !drained;) {
      const stillWriting = writing;
      const page = await call(b!.reader!, 'sync_since', { project_id: P, cursor, limit: 5 });
      seen.push(...(page.result?.events as typeof seen));
      cursor = page.result?.next_cursor as number;
      drained = !stillWriting && !page.result?.has_more;
    }
    await finished;
    assert.deepEqual(
      seen.map((e) => e.cursor),
      Array.from({ length: seen.length }, (_, i) => i + 1),
    );
    const written = seen.filter(
      (e) => e.event_type === 'work_package.issued' && /^W\d-/.test(e.aggregate_id),
    );
    assert.equal(written.length, 50);
  });
});
