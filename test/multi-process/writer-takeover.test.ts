import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openEventLog } from '../../src/events/open-log.js';
import { spawnFixture, unexpectedExit, waitUntil, type Child } from '../fixtures/children.js';
import { testCatalog } from '../fixtures/test-catalog.js';
import { isAck, verifyLog, type Ack } from '../fixtures/verify-log.js';

const PROCESSES = 8;

const acksOf = (child: Child): Ack[] => child.lines.filter(isAck);
const becameWriter = (child: Child): boolean => child.lines.some((l) => l.writer === true);

test('8 processes append to one data dir; the writer is killed midway; nothing is lost or doubled', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'intentlog-takeover-'));
  const children = Array.from({ length: PROCESSES }, (_, i) =>
    spawnFixture('appender.ts', [dataDir, String(i)], `appender ${i}`),
  );
  try {
    // Given 8 processes appending, one of them the writer
    await waitUntil(
      'every process appending',
      () => children.every((c) => acksOf(c).length >= 5),
      () => unexpectedExit(children),
    );
    const writers = children.filter(becameWriter);
    assert.equal(writers.length, 1, 'one writer');
    const [writer] = writers as [Child];
    const survivors = children.filter((c) => c !== writer);
    assert.ok(
      survivors.every((c) => c.lines.find((l) => l.ready)?.role === 'follower'),
      'the others are followers',
    );

    // When the writer is killed with SIGKILL
    writer.kill9();
    await writer.exit;
    const atKill = new Map(survivors.map((c) => [c, acksOf(c).length]));

    // Then a follower takes over and every survivor keeps appending
    await waitUntil(
      'survivors appending after the kill',
      () =>
        survivors.some(becameWriter) &&
        survivors.every((c) => acksOf(c).length >= atKill.get(c)! + 10),
      () => unexpectedExit(survivors),
    );
    for (const c of survivors) c.proc.stdin!.end();
    const exits = await Promise.all(survivors.map((c) => c.exit));
    exits.forEach((e, i) =>
      assert.equal(e.code, 0, `${survivors[i]!.name} exits cleanly: ${survivors[i]!.stderr()}`),
    );
    assert.ok(
      survivors.every((c) => c.lines.some((l) => l.done)),
      'every survivor finished its appends and closed',
    );

    // And the log holds every acknowledged append exactly once, gap-free, with valid chains
    const acks = children.flatMap(acksOf);
    const log = await openEventLog({ dataDir, catalog: testCatalog });
    try {
      const records = await verifyLog(log, acks);
      assert.ok(records.length >= acks.length, 'the log is not empty');
    } finally {
      await log.close();
    }
  } finally {
    for (const c of children) if (!c.exited()) c.kill9();
    await rm(dataDir, { recursive: true, force: true });
  }
});
