import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from '../../src/app/app.js';
import { writeLink } from '../../src/app/storymap/link.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { connect } from '../mcp/harness.js';
import { callOf, ok, VISION, type Call } from './session.js';

/** The local tools of each mode (contracts/storymap.md, "Local server"). */
export const CORE = [
  'list_stories',
  'mark_in_progress',
  'report_criteria',
  'raise_blocker',
  'mark_done',
  'get_status',
  'add_note',
];
export const STANDARD = [
  ...CORE,
  'create_story',
  'get_context',
  'log_decision',
  'amend_decision',
  'retract_decision',
];
export const ALL = [...STANDARD, 'analyze_complexity', 'research', 'import_prd'];

export const RESOURCES = [
  'intentlog://project/storymap',
  'intentlog://project/stories',
  'intentlog://project/status',
  'intentlog://project/decisions',
  'intentlog://project/data-model',
  'intentlog://project/build-order',
];

/**
 * A project made through the hosted surface: vision, three stories (PB-2 after PB-1), a
 * decision, and PB-3 cancelled with a reason.
 */
export const seedProject = async (call: Call) => {
  const created = await ok(call, 'create_project', { name: 'Photo Book', idea: 'Print books' });
  const project_id = created.project_id as string;
  await ok(call, 'set_vision', { project_id, answers: VISION });
  const made = await ok(call, 'create_stories', {
    project_id,
    stories: [
      {
        title: 'Upload photos',
        activity: 'Collect',
        priority: 'must',
        acceptance_criteria: [{ text: 'Given a photo, then it shows', priority: 'must' }],
      },
      { title: 'Arrange pages', activity: 'Design', acceptance_criteria: ['Pages reorder'] },
      { title: 'Order the book', activity: 'Buy' },
    ],
  });
  const [upload, arrange] = made.stories as { id: string }[];
  await ok(call, 'update_stories', {
    project_id,
    stories: [
      { id: arrange!.id, dependencies: [upload!.id], build_sequence: 2 },
      { id: upload!.id, build_sequence: 1 },
    ],
  });
  await ok(call, 'log_decision', {
    project_id,
    title: 'Use S3',
    description: 'Photos go to S3',
    story_id: 'PB-1',
  });
  await ok(call, 'cancel_story', { project_id, story_id: 'PB-3', reason: 'out of scope' });
  return project_id;
};

/** A linked working directory, removed after the body; INTENTLOG_ROOT points at it meanwhile. */
export const withLinkedRoot = async <T>(
  projectId: string,
  body: (root: string) => Promise<T>,
): Promise<T> => {
  const root = await mkdtemp(join(tmpdir(), 'intentlog-local-'));
  const before = process.env.INTENTLOG_ROOT;
  try {
    await writeLink(root, { project_id: projectId });
    process.env.INTENTLOG_ROOT = root;
    return await body(root);
  } finally {
    if (before === undefined) delete process.env.INTENTLOG_ROOT;
    else process.env.INTENTLOG_ROOT = before;
    await rm(root, { recursive: true, force: true });
  }
};

/** A seeded project, linked, and clients of the hosted surface and the local one at `mode`. */
export const localSession = async (app: App, mode: string) => {
  const hosted = await connect(app, resolveSurfaces(surfacesOf(modules), 'storymap'));
  const project_id = await seedProject(callOf(hosted));
  const local = await connect(app, resolveSurfaces(surfacesOf(modules), `storymap-local:${mode}`));
  return { hosted, local, project_id, call: callOf(local) };
};
