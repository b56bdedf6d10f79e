import { strict as assert } from 'node:assert';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cliIn, withAppIn } from '../cli/cli-harness.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { connect } from '../mcp/harness.js';
import { seedProject } from '../storymap/local-fixture.js';
import { callOf } from '../storymap/session.js';

/** A project in the data dir, and a working directory linked to it by the real CLI. */
export const linkedProject = async (dir: string) => {
  const project_id = await withAppIn(dir, async (app) => {
    const hosted = await connect(app, resolveSurfaces(surfacesOf(modules), 'storymap'));
    const id = await seedProject(callOf(hosted));
    await hosted.close();
    return id;
  });
  const root = join(dir, '..', 'work');
  await mkdir(join(root, 'src', 'deep'), { recursive: true });
  const linked = await cliIn(dir, ['storymap', 'link', project_id, '--root', root]);
  assert.equal(linked.code, 0, linked.stderr);
  assert.match(linked.stdout, new RegExp(`linked .* to Photo Book \\(${project_id}\\)`));
  const config = JSON.parse(await readFile(join(root, '.intentlog', 'config.json'), 'utf8'));
  assert.equal(config.project_id, project_id);
  return { project_id, root };
};
