import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { openIntentlog } from '../../src/modules/index.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { fullCatalog } from '../../src/modules/index.js';

const catalog = fullCatalog();
import { openPostgresEventLog } from '../../src/events/postgres/index.js';
import { cli } from '../cli/cli-harness.js';
import { startServe, type Serving } from '../e2e/harness.js';
import { call, connectAs, type Envelope } from '../governance/serve-harness.js';
import { dropSchema, freshSchema, storeUrl } from './pg-test-db.js';
import { assertLogInvariants } from './verify-log.js';

const P = 'scale';
const CLAIMANTS = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8'];
const ACTORS: Record<string, string> = {
  pm: 'PM',
  reader: 'REVIEWER',
  ...Object.fromEntries(CLAIMANTS.map((c) => [c, 'IMPLEMENTER'])),
};
const NAMES = ['system', ...Object.keys(ACTORS)];

/** A bearer token made by `intentlog token create --store <url>`, as an operator would. */
const createToken = async (store: string, name: string): Promise<string> => {
  const who = name === 'system' ? ['--system'] : ['--actor', name];
  const made = await cli(['token', 'create', ...who, '--label', name, '--store', store]);
  assert.equal(made.code, 0, made.stderr);
  return made.stdout.trim();
};

/** Tokens for these actors, issued through the app in this process. */
const issueTokens = async (store: string, actors: string[]) => {
  const app = await openIntentlog({ store });
  try {
    const tokens: Record<string, string> = {};
    for (const actor_id of actors)
      tokens[actor_id] = (
        await app.tokens.issue({ kind: 'actor', actor_id }, actor_id, SYSTEM)
      ).token;
    return tokens;
  } finally {
    await app.close();
  }
};

type Clients = Record<string, Client>;

const issue = (client: Client, id: string): Promise<Envelope> =>
  call(client, 'issue_work_package', {
    project_id: P,
    work_package_id: id,
    title: id,
    idempotency_key: `issue-${id}`,
  });

/** Every event of P through one instance's sync_since, page by page. */
const syncAll = async (client: Client, limit = 500) => {
  const seen: { cursor: number; event_id: string; event_type: string; aggregate_id: string }[] = [];
  for (let more = true; more;) {
    const page = await call(client, 'sync_since', {
      project_id: P,
      cursor: seen.at(-1)?.cursor ?? 0,
      limit,
    });
    seen.push(...(page.result?.events as typeof seen));
    more = page.result?.has_more === true;
  }
  return seen;
};

const ascending = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

describe('three `intentlog serve` processes on one PostgreSQL database', () => {
  const schema = freshSchema('three');
  const store = storeUrl(schema);
  const servers: Serving[] = [];
  /** per server, a client per principal */
  const clients: Clients[] = [];
  let dataDir = '';

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'intentlog-three-')); // unused by a PostgreSQL store
    // The operator's tokens by the CLI, as documented; the claimants' in this process (the same
    // log and command; a CLI process each costs seconds on a loaded machine).
    const tokens: Record<string, string> = { system: await createToken(store, 'system') };
    const [pm, reader] = await Promise.all(['pm', 'reader'].map((n) => createToken(store, n)));
    Object.assign(tokens, { pm, reader }, await issueTokens(store, CLAIMANTS));
    const args = ['--store', store, '--surface', 'governance'];
    servers.push(...(await Promise.all([1, 2, 3].map(() => startServe(dataDir, args)))));
    for (const server of servers) {
      const byName: Clients = {};
      for (const name of NAMES) byName[name] = await connectAs(server.url, tokens[name]!);
      clients.push(byName);
    }
    const system = clients[0]!.system!;
    const created = await call(system, 'create_project', {
      project_id: P,
      name: P,
      idempotency_key: 'create',
    });
    assert.ok(created.ok, JSON.stringify(created.error));
    // registered through each instance in turn: every one of them writes
    for (const [i, [actor_id, role]] of Object.entries(ACTORS).entries())
      assert.ok(
        (
          await call(clients[i % 3]!.system!, 'register_actor', {
            project_id: P,
            actor_id,
            role,
            idempotency_key: `register-${actor_id}`,
          })
        ).ok,
      );
  });

  after(async () => {
    for (const byName of clients)
      for (const client of Object.values(byName)) await client.close().catch(() => undefined);
    await Promise.all(servers.map((s) => s.stop()));
    await rm(dataDir, { recursive: true, force: true });
    await dropSchema(schema);
  });

  it('8 racing claims spread over the 3 servers: exactly one wins, the others invalid_state', async () => {
    for (const wp of ['WP-1', 'WP-2']) {
      assert.ok((await issue(clients[0]!.pm!, wp)).ok);
      const answers = await Promise.all(
        CLAIMANTS.map((c, i) =>
          call(clients[i % 3]![c]!, 'claim_work_package', {
            project_id: P,
            work_package_id: wp,
            idempotency_key: `claim-${wp}`,
          }),
        ),
      );
      const winners = answers.filter((a) => a.ok);
      assert.equal(winners.length, 1, JSON.stringify(answers.map((a) => a.error?.code ?? 'won')));
      assert.deepEqual(
        answers.filter((a) => !a.ok).map((a) => a.error?.code),
        Array(7).fill('invalid_state'),
      );
      for (const byName of clients) {
        const view = await call(byName.reader!, 'get_work_package', {
          project_id: P,
          work_package_id: wp,
        });
        assert.equal(view.result?.claimed_by, winners[0]!.result?.claimed_by);
      }
      const claims = (await syncAll(clients[2]!.reader!)).filter(
        (e) => e.event_type === 'work_package.claimed' && e.aggregate_id === wp,
      );
      assert.equal(claims.length, 1);
    }
  });

  it('an idempotency key replayed against another instance returns the original response', async () => {
    const args = { project_id: P, work_package_id: 'WP-once', title: 'once', idempotency_key: 'k' };
    const first = await call(clients[0]!.pm!, 'issue_work_package', args);
    assert.ok(first.ok, JSON.stringify(first.error));
    for (const byName of clients.slice(1)) {
      const replay = await call(byName.pm!, 'issue_work_package', args);
      assert.deepEqual([first.replayed, replay.replayed], [false, true]);
      assert.deepEqual(replay.result, first.result);
      assert.equal(replay.position, first.position);
    }
    const other = await call(clients[2]!.pm!, 'issue_work_package', { ...args, title: 'twice' });
    assert.equal(other.error?.code, 'conflict');
    const issued = (await syncAll(clients[1]!.reader!)).filter(
      (e) => e.event_type === 'work_package.issued' && e.aggregate_id === 'WP-once',
    );
    assert.equal(issued.length, 1);
  });

  it('a sync_since consumer paging through one instance while the others append sees every event once', async () => {
    const before = (await syncAll(clients[0]!.reader!)).length;
    let writing = true;
    const writers = Promise.all(
      [0, 1].map(async (s) => {
        for (let i = 0; i < 20; i++) assert.ok((await issue(clients[s]!.pm!, `S${s}-${i}`)).ok);
      }),
    ).finally(() => (writing = false));
    const seen: { cursor: number; event_id: string }[] = [];
    for (let drained = false; !drained;) {
      const stillWriting = writing;
      const page = await call(clients[2]!.reader!, 'sync_since', {
        project_id: P,
        cursor: seen.at(-1)?.cursor ?? 0,
        limit: 7,
      });
      seen.push(...(page.result?.events as typeof seen));
      drained = !stillWriting && page.result?.has_more !== true;
    }
    await writers;
    assert.deepEqual(
      seen.map((e) => e.cursor),
      ascending(seen.length),
    );
    assert.equal(new Set(seen.map((e) => e.event_id)).size, seen.length);
    assert.equal(seen.length, before + 40);
    assert.deepEqual(
      seen.map((e) => e.event_id),
      (await syncAll(clients[0]!.reader!)).map((e) => e.event_id),
    );
  });

  it('kill -9 of an instance while clients append through it loses no acknowledged event', async () => {
    const victim = servers[2]!;
    const acked: string[] = [];
    let failed = 0;
    const loops = [0, 1, 2, 3].map(async (w) => {
      for (let i = 0; ; i++) {
        const id = `K${w}-${i}`;
        try {
          const answer = await issue(clients[2]!.pm!, id);
          if (!answer.ok) throw new Error(JSON.stringify(answer.error));
          acked.push(id);
        } catch {
          failed++;
          return;
        }
      }
    });
    while (acked.length < 30 && failed === 0)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(failed, 0, 'no call failed before the kill');
    await victim.stop('SIGKILL');
    await Promise.all(loops);
    assert.ok(failed > 0, 'the calls in flight failed with the instance');

    // the survivors keep appending: the killed instance holds no lock
    assert.ok((await issue(clients[0]!.pm!, 'after-kill')).ok);
    const issued = (await syncAll(clients[1]!.reader!))
      .filter((e) => e.event_type === 'work_package.issued')
      .map((e) => e.aggregate_id);
    for (const id of [...acked, 'after-kill'])
      assert.equal(issued.filter((x) => x === id).length, 1, `acknowledged ${id}`);
    assert.equal(new Set(issued).size, issued.length, 'no work package issued twice');

    const log = await openPostgresEventLog(store, catalog);
    try {
      await assertLogInvariants(log);
    } finally {
      await log.close();
    }
  });
});
