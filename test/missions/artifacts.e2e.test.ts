import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { auditVerify } from '../../src/app/audit.js';
import { missions, missionsArtifactAudit } from '../../src/app/missions/service.js';
import { MISSIONS_MODEL } from '../../src/projections/missions/desk.js';
import { contractArgs, withMissions, type MissionsWorld } from './harness.js';

const ARTIFACTS = 'Projek-Managment';
const snapshot = async (dir: string) => {
  const names = (await readdir(dir)).sort();
  return Object.fromEntries(
    await Promise.all(names.map(async (n) => [n, await readFile(join(dir, n))] as const)),
  );
};

/** A day's worth of changes: a mission, a lane, the inbox, an accepted and a proposed step. */
const aDay = async ({ call, dirs, ownerCode }: MissionsWorld) => {
  const at = { project_path: dirs.project };
  await call('hai_open_mission', contractArgs(dirs.project));
  await call('hai_set_focus', { ...at, focus_id: 'export', label: 'CSV export' });
  await call('hai_park', { ...at, text: 'dark mode some day', tags: ['idea'] });
  await call('hai_propose_next_step', { ...at, content: 'write csv.ts' });
  await call('hai_accept_next_step', at);
  await call('hai_accept_next_step', { ...at, owner_code: await ownerCode() });
  await call('hai_propose_next_step', { ...at, content: 'then the tests' });
};

describe('artifacts: a file projection of the log', () => {
  it('a fresh app rebuilds them byte for byte from the log', async () => {
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
      // the projection side writes them: rebuilding the read model from the log alone
      await withMissions(({ app }) => app.projections.rebuild([MISSIONS_MODEL]), {
        store: 'level',
        root,
      });
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
      assert.equal(await readFile(join(dir, 'NEXT_STEP.md'), 'utf8'), truth);
      assert.deepEqual((await missionsArtifactAudit(world.app))[0]!.drift, []);
    }));

  it('a rebuild of the read model equals the live one, files and keys', () =>
    withMissions(async (world) => {
      await aDay(world);
      const dir = join(world.dirs.project, ARTIFACTS);
      const live = await snapshot(dir);
      const keys = async () =>
        JSON.stringify(await world.app.log.models.range({ prefix: `${MISSIONS_MODEL}/` }));
      const liveKeys = await keys();
      await rm(dir, { recursive: true });
      await world.app.projections.rebuild([MISSIONS_MODEL]);
      assert.deepEqual(await snapshot(dir), live);
      assert.equal(await keys(), liveKeys);
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
      assert.equal((await verify()).ok, true);
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
