import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ClassicLevel } from 'classic-level';
import { fullCatalog } from '../../src/modules/index.js';

const catalog = fullCatalog();
import { decode, streamName, type LogEvent, type StoredRecord } from '../../src/events/index.js';
import { openTransferableLog } from '../../src/events/open-exclusive.js';
import { dropSchema, freshSchema, storeUrl } from '../postgres/pg-test-db.js';
import { cli, seed, withAppIn, withDataDir } from './cli-harness.js';

const SUBJECTS = ['subject-keep', 'subject-gone'];

/** A decision sealed under `subject` (no read model handles decisions: audit replays cleanly). */
const decision = (project: string, id: string, subject?: string) => ({
  type: 'decision.recorded',
  data: {
    project_id: project,
    decision_id: id,
    kind: 'technical',
    title: `decision ${id}`,
    rationale: `because ${id}`,
    work_package_id: null,
    recorded_by: 'system',
  },
  ...(subject ? { metadata: { seal: subject } } : {}),
});

/**
 * seed()'s projects and tokens, plus project gamma with sealed decisions: D-1 kept, D-2 shredded,
 * D-3 sealed under the shredded subject again (a new key: readable), and an unsealed D-4 in alpha.
 */
const seedSealed = async (dir: string): Promise<void> => {
  await seed(dir);
  await withAppIn(dir, async (app) => {
    await app.projects.create(
      { project_id: 'gamma', name: 'Gamma' },
      { principal: { kind: 'system' } },
    );
    const append = (project: string, id: string, subject?: string) =>
      app.log.appendToStream(
        streamName({ aggregateType: 'decision', projectId: project, aggregateId: id }),
        [decision(project, id, subject)],
      );
    await append('gamma', 'D-1', 'subject-keep');
    await append('gamma', 'D-2', 'subject-gone');
    await app.log.shred('subject-gone');
    await append('gamma', 'D-3', 'subject-gone');
    await append('alpha', 'D-4');
  });
};

type Snapshot = { raw: StoredRecord[]; events: LogEvent[]; keys: Map<string, Uint8Array> };

/** Everything a store holds that a migration must carry: records, what readers see, keys. */
const snapshot = async (location: string): Promise<Snapshot> => {
  const log = await openTransferableLog(location, catalog, { create: false });
  try {
    const raw = await log.readRaw({ after: 0, limit: 100_000 });
    const events = await log.readAll({ after: 0, limit: 100_000 });
    return { raw, events, keys: await log.contentKeys(SUBJECTS) };
  } finally {
    await log.close();
  }
};

const decisionsOf = (events: LogEvent[]) =>
  Object.fromEntries(
    events
      .filter((e) => e.type === 'decision.recorded')
      .map((e) => [e.aggregate_id, e.shredded ? 'shredded' : e.data.title]),
  );

const migrate = (from: string, to: string, ...more: string[]) =>
  cli(['migrate', '--from', from, '--to', to, ...more]);

const auditOk = async (store: string[]): Promise<void> => {
  const audit = await cli(['audit', 'verify', ...store]);
  assert.equal(audit.code, 0, audit.stderr);
  assert.match(audit.stdout, /^ok: /);
};

describe('intentlog migrate', () => {
  const schemas: string[] = [];
  const pgStore = (prefix: string): string => {
    const schema = freshSchema(prefix);
    schemas.push(schema);
    return storeUrl(schema);
  };
  after(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });

  it('LevelDB → PostgreSQL → a fresh LevelDB keeps every record, key and shred', () =>
    withDataDir(async (dir) => {
      await seedSealed(dir);
      const pg = pgStore('mig_round');
      const back = `${dir}-back`;
      const there = await migrate(dir, pg);
      assert.equal(there.code, 0, there.stderr);
      assert.match(
        there.stdout,
        /migrated the whole log: \d+ events in 4 projects, 2 content keys/,
      );
      const home = await migrate(pg, back);
      assert.equal(home.code, 0, home.stderr);

      const [source, middle, end] = [await snapshot(dir), await snapshot(pg), await snapshot(back)];
      assert.ok(source.raw.length > 10);
      // every stored record as it was: ids, envelopes, created_at, positions, cursors, hashes,
      // sealed bytes; and the content keys, so the sealed content still opens
      assert.deepEqual(middle.raw, source.raw);
      assert.deepEqual(end.raw, source.raw);
      assert.deepEqual(middle.keys, source.keys);
      assert.deepEqual(end.keys, source.keys);
      assert.deepEqual(middle.events, source.events);
      assert.deepEqual(end.events, source.events);
      assert.deepEqual(decisionsOf(end.events), {
        'D-1': 'decision D-1',
        'D-2': 'shredded',
        'D-3': 'decision D-3',
        'D-4': 'decision D-4',
      });

      await auditOk(['--store', pg]);
      await auditOk(['--data-dir', back]);

      // neither target is empty now: both refuse another copy, and nothing more is written
      const again = await migrate(dir, pg);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /the target is not empty/);
      assert.equal((await migrate(pg, back)).code, 1);
      assert.equal((await snapshot(pg)).raw.length, source.raw.length);
    }));

  it('copies one project at a time into a log that holds others, never one it holds', () =>
    withDataDir(async (dir) => {
      await seedSealed(dir);
      const pg = pgStore('mig_project');
      for (const project of ['gamma', 'alpha']) {
        const copied = await migrate(dir, pg, '--project', project);
        assert.equal(copied.code, 0, copied.stderr);
      }
      const again = await migrate(dir, pg, '--project', 'alpha');
      assert.equal(again.code, 1);
      assert.match(again.stderr, /already holds project alpha/);

      const [source, target] = [await snapshot(dir), await snapshot(pg)];
      const envelope = (r: StoredRecord | LogEvent) => {
        const { global_position: _p, prev_hash: _prev, hash: _h, ...rest } = r;
        return rest;
      };
      for (const project of ['gamma', 'alpha']) {
        const from = source.raw.filter((r) => r.project_id === project);
        const to = target.raw.filter((r) => r.project_id === project);
        // positions are new (and so is the chain they are linked into); the rest is as it was
        assert.deepEqual(to.map(envelope), from.map(envelope));
      }
      assert.deepEqual(
        target.raw.map((r) => r.global_position),
        target.raw.map((_, i) => i + 1),
      );
      assert.deepEqual(decisionsOf(target.events), decisionsOf(source.events));
      assert.deepEqual(target.keys, source.keys);
      await auditOk(['--store', pg]);
    }));

  it('refuses a source whose chain does not verify, before writing anything', () =>
    withDataDir(async (dir) => {
      await seedSealed(dir);
      const copy = `${dir}-tampered`;
      await cp(dir, copy, { recursive: true });
      const db = new ClassicLevel<Buffer, Buffer>(join(copy, 'log'), {
        keyEncoding: 'buffer',
        valueEncoding: 'buffer',
      });
      await db.open();
      let tampered: StoredRecord | undefined;
      for (const [key, value] of await db
        .iterator({ gte: Buffer.of(0x67), lt: Buffer.of(0x68) })
        .all()) {
        const at = value.indexOf(Buffer.from('Alpha project'));
        if (at < 0) continue;
        tampered = decode<StoredRecord>(value);
        const flipped = Buffer.from(value);
        flipped[at] = flipped[at]! ^ 0x01; // still valid msgpack, different content
        await db.put(key, flipped);
      }
      await db.close();
      assert.ok(tampered);

      const pg = pgStore('mig_tamper');
      const refused = await migrate(copy, pg);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, new RegExp(`chain check failed at event ${tampered.event_id}`));
      assert.match(refused.stderr, /hash does not match content/);
      assert.equal((await snapshot(pg)).raw.length, 0, 'nothing was written');
    }));

  it('refuses a data dir another process holds', () =>
    withDataDir(async (dir) => {
      await seedSealed(dir);
      const holder = spawn(
        process.execPath,
        ['--import', 'tsx', new URL('./holder.ts', import.meta.url).pathname, dir],
        { stdio: ['pipe', 'pipe', 'inherit'] },
      );
      try {
        await new Promise<void>((resolve, reject) => {
          holder.stdout.setEncoding('utf8').on('data', (d: string) => {
            if (d.includes('"role":"writer"')) resolve();
          });
          holder.on('exit', () => reject(new Error('the holder exited')));
        });
        const refused = await migrate(dir, pgStore('mig_held'));
        assert.equal(refused.code, 1);
        assert.match(refused.stderr, /in use by another intentlog process/);
      } finally {
        holder.stdin.end();
        await new Promise((resolve) => holder.on('close', resolve));
      }
    }));
});
