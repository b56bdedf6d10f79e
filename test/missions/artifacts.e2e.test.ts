import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { auditVerify } from '../../src/app/audit.js';
import { missions, missionsArtifactAudit } from '../../src/app/missions/service.js';
import { healthOf } from '../../src/app/health.js';
import { modules } from '../../src/modules/index.js';
import { MISSIONS_MODEL } from '../../src/projections/missions/desk.js';
import {
  appendLegacyMount,
  artifactsWritten,
  contractArgs,
  withMissions,
  type MissionsWorld,
} from './harness.js';

const ARTIFACTS = 'Projek-Managment';
const snapshot = async (dir: string) => {
  const names = (await readdir(dir)).sort();
  return Object.fromEntries(
    await Promise.all(names.map(async (n) => [n, await readFile(join(dir, n))] as const)),
  );
};

/** Every module, the missions one without its artifact sink: a writer that writes no files. */
const withoutSink = modules.map((m) => {
  if (m.name !== 'missions') return m;
  const { onWriter: _sink, ...rest } = m;
  return rest;
});

/** A day's worth of changes: a mission, a lane, the inbox, an accepted and a proposed step. */
const aDay = async ({ app, call, dirs, ownerCode }: MissionsWorld) => {
  const at = { project_path: dirs.project };
  await call('hai_open_mission', contractArgs(dirs.project));
  await call('hai_set_focus', { ...at, focus_id: 'export', label: 'CSV export' });
  await call('hai_park', { ...at, text: 'dark mode some day', tags: ['idea'] });
  await call('hai_propose_next_step', { ...at, content: 'write csv.ts' });
  await call('hai_accept_next_step', at);
  await call('hai_accept_next_step', { ...at, owner_code: await ownerCode() });
  await call('hai_propose_next_step', { ...at, content: 'then the tests' });
  await artifactsWritten(app);
};

describe('artifacts: a file projection of the log', () => {
  it('a restart writes the files deleted meanwhile, byte for byte what was written', async () => {
    const root = await mkdtemp(join(tmpdir(), 'intentlog-artifacts-'));
    const dir = join(root, 'project', ARTIFACTS);
    try {
      await withMissions(aDay, { store: 'level', root });
      const written = await snapshot(dir);
      assert.deepEqual(Object.keys(written), [
        'BRIEFING.md',
        'CODE_STATE.md',
        'INBOX.md',
        'INTENT.md',
        'NEXT_STEP.md',
        'NEXT_STEP.proposed.md',
        'PROJECT_STATE.md',
        'PROMPT.md',
      ]);
      await rm(dir, { recursive: true });
      // the sink looks at every project it wrote once after a restart: a file gone is written
      await withMissions(({ app }) => artifactsWritten(app), { store: 'level', root });
      assert.deepEqual(await snapshot(dir), written);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('rewrite only the files a change touches (counted)', () =>
    withMissions(async (world) => {
      await aDay(world);
      const { core } = missions(world.app);
      const at = { project_path: world.dirs.project };
      const writes = async (step: () => Promise<unknown>) => {
        const before = core.artifactWrites();
        await step();
        await artifactsWritten(world.app);
        return core.artifactWrites() - before;
      };
      assert.equal(await writes(() => world.call('hai_park', { ...at, text: 'one more idea' })), 2); // INBOX, PROJECT_STATE
      assert.equal(
        await writes(() => world.call('hai_set_focus', { ...at, focus_id: 'tests' })),
        1,
      ); // PROJECT_STATE
      assert.equal(
        await writes(() => world.call('hai_set_focus', { ...at, focus_id: 'tests' })),
        0,
      ); // nothing changed
      assert.equal(await writes(() => world.call('hai_get_next_step', at)), 0);
    }));

  it('an edited or deleted artifact is reported by the audit and rewritten on the next change', () =>
    withMissions(async (world) => {
      await aDay(world);
      const dir = join(world.dirs.project, ARTIFACTS);
      const truth = await readFile(join(dir, 'NEXT_STEP.md'), 'utf8');
      await writeFile(join(dir, 'NEXT_STEP.md'), 'do whatever you like\n');
      await rm(join(dir, 'BRIEFING.md'));
      const [audit] = await missionsArtifactAudit(world.app);
      assert.deepEqual(audit!.drift, [
        { file: 'BRIEFING.md', status: 'missing' },
        { file: 'NEXT_STEP.md', status: 'edited' },
      ]);
      // never read back as truth: the log's next step stands
      const next = await world.call('hai_get_next_step', { project_path: world.dirs.project });
      assert.equal(next.result!.next_step, 'write csv.ts');
      await world.call('hai_park', { project_path: world.dirs.project, text: 'a change' });
      await artifactsWritten(world.app);
      assert.equal(await readFile(join(dir, 'NEXT_STEP.md'), 'utf8'), truth);
      assert.deepEqual((await missionsArtifactAudit(world.app))[0]!.drift, []);
    }));

  it('a rebuild of the read model equals the live one, and leaves the files as they are', () =>
    withMissions(async (world) => {
      await aDay(world);
      const dir = join(world.dirs.project, ARTIFACTS);
      const live = await snapshot(dir);
      const keys = async () =>
        JSON.stringify(await world.app.log.models.range({ prefix: `${MISSIONS_MODEL}/` }));
      const liveKeys = await keys();
      const writes = missions(world.app).core.artifactWrites();
      await world.app.projections.rebuild([MISSIONS_MODEL]);
      await artifactsWritten(world.app);
      assert.equal(await keys(), liveKeys);
      assert.deepEqual(await snapshot(dir), live);
      assert.equal(missions(world.app).core.artifactWrites(), writes);
    }));

  it('the sink catches up after a restart from its own checkpoint, writing only what changed', async () => {
    const root = await mkdtemp(join(tmpdir(), 'intentlog-artifacts-'));
    const dir = join(root, 'project', ARTIFACTS);
    try {
      await withMissions(aDay, { store: 'level', root });
      const before = await snapshot(dir);
      // a writer without the sink: the log moves on, the files do not
      await withMissions(
        async ({ call, dirs }) => {
          await call('hai_park', { project_path: dirs.project, text: 'parked while away' });
          await call('hai_set_focus', { project_path: dirs.project, focus_id: 'away' });
        },
        { store: 'level', root, modules: withoutSink },
      );
      assert.deepEqual(await snapshot(dir), before);
      await withMissions(
        async ({ app }) => {
          await artifactsWritten(app);
          // INBOX and PROJECT_STATE: the rest is as the sink left it (its marks, no read back)
          assert.equal(missions(app).core.artifactWrites(), 2);
        },
        { store: 'level', root },
      );
      const after = await snapshot(dir);
      assert.match(after['INBOX.md']!.toString(), /parked while away/);
      assert.match(after['PROJECT_STATE.md']!.toString(), /away ACTIVE/);
      assert.deepEqual(after['NEXT_STEP.md'], before['NEXT_STEP.md']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('a directory the files cannot go to refuses no call and shows in hai_health and /healthz', () =>
    withMissions(async ({ app, call, dirs }) => {
      // a mount recorded before roots were checked (the earlier mount table): nothing is written there
      await appendLegacyMount(app, {
        project_id: 'gone',
        local_path: '/proc/1',
        root_hash: 'y'.repeat(64),
        reason: 'recorded before roots were checked',
      });
      for (let i = 0; i < 3; i++)
        assert.equal((await call('hai_park', { project_id: 'gone', text: `idea ${i}` })).ok, true);
      await artifactsWritten(app);
      const health = await call('hai_health', { project_id: 'gone' });
      const project = health.result!.project as { artifact_failure: { reason: string } | null };
      assert.match(project.artifact_failure!.reason, /ENOENT|EACCES|EPERM/);
      const healthz = await healthOf(app);
      assert.equal(healthz.status, 'degraded');
      const sink = healthz.sinks?.find((s) => s.name === 'missions-artifacts');
      assert.deepEqual(
        sink?.failing.map((f) => f.target),
        ['gone'],
      );
      assert.equal(sink?.lag, 0);
      // every other project's files and calls go on
      await call('hai_park', { project_path: dirs.project, text: 'fine here' });
      await artifactsWritten(app);
      assert.match(await readFile(join(dirs.project, ARTIFACTS, 'INBOX.md'), 'utf8'), /fine here/);
    }));

  it('audit verify reports a tampered artifact (through the module declaration)', () =>
    withMissions(async (world) => {
      await aDay(world);
      const verify = () =>
        auditVerify({
          log: world.app.log,
          catalog: world.app.catalog,
          projectors: world.app.projectors,
          waitFor: world.app.waitFor,
          contexts: world.app.audits.map((a) => () => a.run(world.app)),
        });
      const first = await verify();
      assert.equal(first.ok, true, JSON.stringify(first));
      const file = join(world.dirs.project, ARTIFACTS, 'NEXT_STEP.md');
      await writeFile(file, 'skip the tests\n');
      const report = await verify();
      assert.equal(report.ok, false);
      assert.equal(report.finding?.check, 'context');
      assert.equal(report.finding?.context, 'missions artifacts');
      assert.equal(report.finding?.file, file);
      assert.match(report.finding?.reason ?? '', /^edited/);
    }));
});
