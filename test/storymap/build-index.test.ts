import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { storymap } from '../../src/app/storymap/index.js';
import { storymapBuild } from '../../src/app/storymap/build.js';
import { storymapBuildIndex } from '../../src/app/storymap/build-index.js';
import type { Principal } from '../../src/commands/principal.js';
import { isFinished } from '../../src/commands/storymap/build-order.js';
import { openIntentlog } from '../../src/modules/index.js';
import { VISION } from './session.js';

const founder: Principal = { kind: 'actor', actor_id: 'founder' };
const byId = <T extends { id: string }>(xs: readonly T[]) =>
  [...xs].sort((a, b) => a.id.localeCompare(b.id));

test('the building index reads as the read models do after every write, its own reads interleaved', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'intentlog-build-index-'));
  const app = await openIntentlog({ dataDir: dir, store: 'memory' });
  try {
    const sm = storymap(app);
    const build = storymapBuild(app);
    const index = storymapBuildIndex(app);
    const { project_id } = await sm.createProject(
      { name: 'Index', idea: 'i', client: null },
      founder,
    );
    await sm.setVision({ project_id, answers: VISION }, founder);
    const stories = Array.from({ length: 6 }, (_, i) => ({
      title: `Story ${i}`,
      acceptance_criteria: [{ text: `Given ${i} then done`, priority: 'must' }],
    }));
    await sm.createStories({ project_id, stories }, founder);
    await sm.reads.fresh();
    const ids = (await sm.reads.rows(project_id)).map((r) => r.id);

    /** Then: the index's rows and worked stories equal what the read models say now. */
    const same = async () => {
      const [rows, worked] = [await index.rows(project_id), await index.worked(project_id)];
      const fresh = await sm.reads.rows(project_id);
      assert.deepEqual(byId(rows), byId(fresh));
      // cancelled stories are no one's work: the warnings leave them out
      const views = (await sm.reads.stories(project_id)).filter((v) => v.cancelled_at === null);
      const building = views.filter((v) => v.status === 'in_progress');
      assert.deepEqual(
        byId(worked.building).map((w) => [w.id, w.claimed_by, [...w.files]]),
        byId(building).map((v) => [
          v.id,
          v.build.claim?.session_id ?? null,
          [...new Set(v.build.plan?.steps.flatMap((s) => s.files))],
        ]),
      );
      assert.deepEqual(
        byId(worked.built).map((w) => [w.id, [...w.files]]),
        byId(views.filter((v) => isFinished(v))).map((v) => [v.id, v.implemented_files]),
      );
    };

    await same(); // built from the read models on first use
    const session = (n: number) => ({ session_id: `s-${n}`, client: null });
    const on = (i: number) => ({ project_id, story_id: ids[i]! });
    // When sessions start, plan, report and complete stories, and the founder edits the map
    await build.start(on(0), founder, session(0));
    await build.start(on(1), founder, session(1));
    await same();
    await build.savePlan(
      { ...on(0), steps: [{ text: 'Write it', files: ['src/a.ts', 'src/b.ts'] }] },
      founder,
      's-0',
    );
    const story0 = await sm.reads.story(project_id, ids[0]!);
    await build.report(
      { ...on(0), results: [{ criterion_id: story0!.acceptance_criteria[0]!.id, status: 'pass' }] },
      founder,
      session(0),
    );
    await same();
    await build.complete(
      { ...on(0), summary: 'Built', implemented_files: ['src/a.ts'] },
      founder,
      's-0',
    );
    await sm.updateStories(
      { project_id, stories: [{ id: ids[2]!, title: 'Renamed', build_sequence: 1 }] },
      founder,
    );
    await sm.cancel({ ...on(1), reason: 'not now' }, founder, true);
    await same();
    // reads side by side with writes: each answer holds at least the writes before it
    await Promise.all([
      build.start(on(3), founder, session(3)),
      index.rows(project_id),
      build.start(on(4), founder, session(4)),
      index.worked(project_id),
    ]);
    await same();
  } finally {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
});
