import { mkdtemp, rm } from 'node:fs/promises';
import { randomInt } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { openEventLog } from '../../src/events/open-log.js';
import { spawnFixture, waitUntil, type Child } from '../fixtures/children.js';
import { checkReadModels, startReadModels } from '../fixtures/read-model-hooks.js';
import { testCatalog } from '../fixtures/test-catalog.js';
import { isAck, verifyLog, type Ack } from '../fixtures/verify-log.js';

const ROUNDS = 20;
/** Processes started ahead: loading tsx and the code costs more than a round. */
const AHEAD = 2;

test('kill -9 at random moments loses no acknowledged append and tears no record', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'intentlog-kill9-'));
  const acks: Ack[] = [];
  // Each round's process is started (and loads its code) during the rounds before.
  const load = (round: number): Child =>
    spawnFixture('appender.ts', [dataDir, String(round), 'on-go'], `round ${round}`);
  const children = Array.from({ length: AHEAD }, (_, round) => load(round));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Given a process appending from 4 concurrent workers (each round on streams of its own)
      const child = children[round]!;
      child.send({ go: true });
      if (round + AHEAD < ROUNDS) children.push(load(round + AHEAD));
      const target = randomInt(0, 60);
      await waitUntil(
        `round ${round}: ${target} acknowledged appends`,
        () => child.lines.some((l) => l.writer) && child.lines.filter(isAck).length >= target,
        () => (child.exited() ? `the child exited: ${child.stderr().slice(-2000)}` : undefined),
      );
      await sleep(randomInt(0, 15)); // land the kill anywhere in the next group commit

      // When it is killed with SIGKILL
      child.kill9();
      await child.exit;
      acks.push(...child.lines.filter(isAck));

      // Then the reopened log has every acknowledged append, whole and once, and valid chains
      const log = await openEventLog({ dataDir, catalog: testCatalog, onWriter: startReadModels });
      try {
        await verifyLog(log, acks);
        await checkReadModels(log);
      } finally {
        await log.close();
      }
    }
  } finally {
    for (const c of children) if (!c.exited()) c.kill9();
    await rm(dataDir, { recursive: true, force: true });
  }
});
