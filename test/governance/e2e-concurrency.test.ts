import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { Principal } from '../../src/commands/principal.js';
import { call, connectAs, startServer, withDataDir, type Server } from './serve-harness.js';

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

/** Servers over one data dir, a client per principal on each; everything closed after. */
const withServers = (count: number, body: (clients: Record<string, Client>[]) => Promise<void>) =>
  withDataDir(principals, async (dir, tokens) => {
    const servers: Server[] = [];
    const clients: Record<string, Client>[] = [];
    try {
      // one after the other: the first holds the data dir, the others follow it
      for (let i = 0; i < count; i++) servers.push(await startServer(dir));
      for (const server of servers) {
        const byName: Record<string, Client> = {};
        for (const name of Object.keys(principals))
          byName[name] = await connectAs(server.url, tokens[name]!);
        clients.push(byName);
      }
      await body(clients);
    } finally {
      for (const byName of clients) for (const c of Object.values(byName)) await c.close();
      for (const server of servers) await server.stop();
    }
  });

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

describe('governance over HTTP under concurrency', () => {
  it('8 concurrent claims through one `intentlog serve`: exactly one wins', () =>
    withServers(1, async (clients) => {
      await seedProject(clients[0]!.system!);
      await assertOneWinner(clients, 'WP-1');
      await assertOneWinner(clients, 'WP-2');
    }));

  it('8 concurrent claims split over 2 server processes on one data dir: exactly one wins', () =>
    withServers(2, async (clients) => {
      await seedProject(clients[1]!.system!);
      await assertOneWinner(clients, 'WP-1');
      await assertOneWinner(clients, 'WP-2');
    }));

  it('an idempotency key replays across processes; other input under it is conflict', () =>
    withServers(2, async ([a, b]) => {
      await seedProject(a!.system!);
      const args = {
        project_id: P,
        work_package_id: 'WP-9',
        title: 'once',
        idempotency_key: 'same',
      };
      const first = await call(a!.pm!, 'issue_work_package', args);
      const replay = await call(b!.pm!, 'issue_work_package', args);
      assert.deepEqual([first.replayed, replay.replayed], [false, true]);
      assert.deepEqual(replay.result, first.result);
      const other = await call(b!.pm!, 'issue_work_package', { ...args, title: 'twice' });
      assert.equal(other.error?.code, 'conflict');
    }));

  it('a sync_since consumer paging from 0 while both servers append sees every event once', () =>
    withServers(2, async ([a, b]) => {
      await seedProject(a!.system!);
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
      const finished = Promise.all(writers).then(() => (writing = false));
      const seen: number[] = [];
      let cursor = 0;
      for (let drained = false; !drained;) {
        const stillWriting = writing;
        const page = await call(b!.reader!, 'sync_since', { project_id: P, cursor, limit: 5 });
        seen.push(...(page.result?.events as { cursor: number }[]).map((e) => e.cursor));
        cursor = page.result?.next_cursor as number;
        drained = !stillWriting && !page.result?.has_more;
      }
      await finished;
      assert.deepEqual(
        seen,
        Array.from({ length: seen.length }, (_, i) => i + 1),
      );
      // everything: the seed (1 project + 10 actors) and 50 packages
      assert.equal(seen.length, 1 + 10 + 50);
    }));
});
