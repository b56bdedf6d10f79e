import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { agentSource, intentClient, openAt, withDir, withIntentClient } from './harness.js';

const ROUNDS = 8;

describe('intent under concurrency', () => {
  it('24 concurrent writers on one task: every write lands once, retries replay', () =>
    withDir((data) =>
      withDir(async (root) => {
        await withIntentClient(data, [root], async (c) => {
          const task_id = String((await c.ok('intent_start_task')).task_id);
          const write = (i: number) =>
            c.ok('intent_add_inference', {
              task_id,
              request_id: `w-${i}`,
              statement: `writer ${i} infers something`,
              confidence: 0.5,
              source_ref: agentSource,
            });
          const writers = Array.from({ length: 24 }, (_, i) => i);
          const first = await Promise.all(writers.map(write));
          const retried = await Promise.all(writers.map(write));
          const ids = first.map((r) => String(r.claim_id));
          assert.equal(new Set(ids).size, 24);
          assert.deepEqual(
            retried.map((r) => String(r.claim_id)),
            ids,
          );
          const snap = (await c.ok('intent_get_snapshot', { task_id })).snapshot as unknown as {
            active_claims: number;
          };
          assert.equal(snap.active_claims, 24);
        });
      }),
    ));

  it('24 closed-loop writers in two processes, each write also sent by the other: each lands once', () =>
    withDir((data) =>
      withDir(async (root) => {
        // the first app holds the data dir (the writer); the second forwards to it over the
        // writer socket, as a second MCP process would: two command paths, one log
        const writerApp = await openAt(data);
        const followerApp = await openAt(data);
        const clients = [
          await intentClient(writerApp, [root]),
          await intentClient(followerApp, [root]),
        ];
        try {
          assert.equal(followerApp.log.role(), 'follower');
          const task_id = String((await clients[0]!.ok('intent_start_task')).task_id);
          const write = (via: number, w: number, round: number) =>
            clients[via]!.ok('intent_add_inference', {
              task_id,
              request_id: `w${w}-r${round}`,
              statement: `writer ${w} infers ${round}`,
              confidence: 0.5,
              source_ref: agentSource,
            });
          // each writer starts its next write as soon as the last returns; writers 0-11 go
          // through the writer, 12-23 through the follower, and every write is sent a second
          // time, at once, through the other one (a client retrying on another process)
          const loop = async (w: number) => {
            const home = w < 12 ? 0 : 1;
            const ids: string[] = [];
            for (let round = 0; round < ROUNDS; round++) {
              const [a, b] = await Promise.all([write(home, w, round), write(1 - home, w, round)]);
              assert.equal(a.claim_id, b.claim_id, `w${w}-r${round}: one claim for one request`);
              ids.push(String(a.claim_id));
            }
            return ids;
          };
          const ids = (await Promise.all(Array.from({ length: 24 }, (_, w) => loop(w)))).flat();
          assert.equal(new Set(ids).size, 24 * ROUNDS);
          const snap = (await clients[1]!.ok('intent_get_snapshot', { task_id }))
            .snapshot as unknown as { active_claims: number };
          assert.equal(snap.active_claims, 24 * ROUNDS, 'every write once, none twice');
        } finally {
          for (const c of clients) await c.close();
          await followerApp.close();
          await writerApp.close();
        }
      }),
    ));
});
