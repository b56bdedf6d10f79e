import { strict as assert } from 'node:assert';
import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { levelEventLog, openCatalog, openClassicLevel } from '../../src/events/index.js';
import { startProjections, type Checkpoint } from '../../src/projections/index.js';
import { checkpointKey } from '../../src/projections/projector.js';
import { spawnFixture, waitUntil } from '../fixtures/children.js';
import { foldOf, idleLaneModels, IDLE_LANE_MODELS } from '../fixtures/idle-lane-models.js';

const ROUNDS = 4;
const NAMES = Object.keys(IDLE_LANE_MODELS) as (keyof typeof IDLE_LANE_MODELS)[];

test('kill -9 while an idle read model moves its checkpoint in memory: never ahead of its data', async () => {
  const parent = await mkdtemp(join(tmpdir(), 'intentlog-idle-kill-'));
  const dir = join(parent, 'log');
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Given a process appending while the engine folds live, killed at a random moment
      const child = spawnFixture('idle-lanes-writer.ts', [dir], `round ${round}`);
      const target = randomInt(2_000, 6_000);
      await waitUntil(
        `round ${round}: ${target} more events`,
        () => child.lines.some((l) => Number(l.appended) >= target * (round + 1)),
        () => (child.exited() ? `the child exited: ${child.stderr().slice(-2000)}` : undefined),
      );
      await sleep(randomInt(0, 20));
      child.kill9();
      await child.exit;

      // Then each read model holds exactly the fold of the log up to its stored checkpoint
      const log = await levelEventLog(await openClassicLevel(dir), openCatalog);
      try {
        const head = await log.head();
        const events = await log.readAll({ after: 0, limit: head });
        for (const name of NAMES) {
          const at = (await log.models.get<Checkpoint>(checkpointKey(name)))!.position;
          assert.ok(at <= head, `${name}: checkpoint ${at} past the head ${head}`);
          const upTo = events.filter((e) => e.global_position <= at);
          const held = await log.models.range<number>({ prefix: `${name}/` });
          assert.deepEqual(held, foldOf(name, upTo), `${name} at ${at} of ${head}`);
        }
        // and a restart folds on from there to the fold of the whole log
        const engine = await startProjections(log, idleLaneModels(), { idleCheckpointPages: 2 });
        await engine.stop();
        for (const name of NAMES)
          assert.deepEqual(
            await log.models.range<number>({ prefix: `${name}/` }),
            foldOf(name, events),
          );
      } finally {
        await log.close();
      }
    }
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
});
