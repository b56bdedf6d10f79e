import {
  orderRow,
  STORYMAP_BUILD_ORDER,
  buildOrderModel,
} from '../../projections/storymap/build-order.js';
import { isFinished } from '../../commands/storymap/build-order.js';
import { buildOrder, type OrderRow } from '../../projections/storymap/order.js';
import { STORYMAP_STORIES, storyMapModel } from '../../projections/storymap/stories.js';
import type { StoryView } from '../../projections/storymap/views.js';
import type { App } from '../app.js';
import { lastProjectCursor } from '../project/cursor.js';
import { perApp } from '../per-app.js';

/** What the building loop's warnings read of a story being built or built. */
export type WorkedStory = {
  id: string;
  key: string;
  title: string;
  /** the session holding it, for a story in progress */
  claimed_by: string | null;
  /** its plan's files while in progress; its implemented files once built */
  files: readonly string[];
};

type Entry = {
  /** the project's cursor the index holds everything up to */
  cursor: number;
  /** the global position it holds everything up to */
  position: number;
  rows: Map<string, OrderRow>;
  building: Map<string, WorkedStory>;
  built: Map<string, WorkedStory>;
  list?: OrderRow[];
};

const planFilesOf = (v: StoryView) => [...new Set(v.build.plan?.steps.flatMap((s) => s.files))];

/**
 * The build-order rows of a project as start_story and complete_story read them, with the
 * stories in progress (their plan's files, their holder) and the built ones (their files):
 * kept up to date by the project's events since the last read — the rows those events name are
 * read again — instead of reading every row and every built story at each new head. With 32
 * sessions writing, the head moves between any two calls, and reading 2,000 rows and every
 * built story per start and completion was most of the loop's CPU (bench/storymap-loop.ts).
 * Reads are read-your-writes: an index holds the rows up to the log's head at the call, as the
 * read models do, and one refresh per project runs at a time so a row is never set backwards.
 */
export const storyMapBuildIndex = (app: App) => {
  const models = app.log.models;
  const entries = new Map<string, Entry>();
  const queues = new Map<string, Promise<unknown>>();

  const storyView = (projectId: string, id: string) =>
    storyMapModel.story.get(models, projectId, id);

  const track = async (e: Entry, projectId: string, row: OrderRow) => {
    e.building.delete(row.id);
    e.built.delete(row.id);
    if (row.cancelled_at !== null) return;
    const working = row.status === 'in_progress';
    if (!working && !isFinished(row)) return;
    const v = await storyView(projectId, row.id);
    if (!v) return;
    const worked = { id: v.id, key: v.key, title: v.title };
    if (working)
      e.building.set(row.id, {
        ...worked,
        claimed_by: v.build.claim?.session_id ?? null,
        files: planFilesOf(v),
      });
    else e.built.set(row.id, { ...worked, claimed_by: null, files: v.implemented_files });
  };

  // the cursor is read before the read model is waited for: it then holds at least that much
  const build = async (projectId: string): Promise<Entry> => {
    const cursor = await lastProjectCursor(app.log, projectId);
    const position = await caughtUp();
    const stored = await buildOrderModel.rows.entries(models, projectId);
    const e: Entry = { cursor, position, rows: new Map(), building: new Map(), built: new Map() };
    for (const [, s] of stored) {
      const row = orderRow(s);
      e.rows.set(row.id, row);
    }
    await Promise.all([...e.rows.values()].map((row) => track(e, projectId, row)));
    return e;
  };

  /** The events up to `head` since the entry's cursor: the stories they name are read again. */
  const update = async (projectId: string, e: Entry, head: number) => {
    if (e.position >= head) return;
    e.position = head;
    const touched = new Set<string>();
    for (;;) {
      const page = await app.log.readProject(projectId, { after: e.cursor, limit: 1000 });
      const upTo = page.filter((x) => x.global_position <= head);
      for (const x of upTo) {
        const story = x.data.story_id;
        if (typeof story === 'string' && x.type !== 'storymap.decision_logged') touched.add(story);
        e.cursor = x.cursor;
      }
      if (upTo.length < 1000) break;
    }
    if (touched.size === 0) return;
    e.list = undefined;
    await Promise.all(
      [...touched].map(async (id) => {
        const stored = await buildOrderModel.row.get(models, projectId, id);
        if (!stored) return;
        const row = orderRow(stored);
        e.rows.set(id, row);
        await track(e, projectId, row);
      }),
    );
  };

  // The highest head the read models are known to hold: a refresh reads up to it.
  let ready = 0;
  const caughtUp = async () => {
    const head = await app.log.head();
    await app.waitFor(head, [STORYMAP_BUILD_ORDER, STORYMAP_STORIES]);
    ready = Math.max(ready, head);
    return head;
  };

  const refresh = async (projectId: string): Promise<Entry> => {
    const known = entries.get(projectId);
    if (!known) {
      const built = await build(projectId);
      entries.set(projectId, built);
      return built;
    }
    await update(projectId, known, ready);
    return known;
  };

  /**
   * Waits for the read models to hold the log's head (calls wait side by side), then one
   * refresh per project at a time, up to the highest head any call has seen them hold: a call
   * queued behind one that read past its own head finds nothing left to read.
   */
  const at = async (projectId: string): Promise<Entry> => {
    await caughtUp();
    const next = (queues.get(projectId) ?? Promise.resolve()).then(
      () => refresh(projectId),
      () => refresh(projectId),
    );
    queues.set(projectId, next);
    return next;
  };

  const rowsOf = (e: Entry) => (e.list ??= [...e.rows.values()]);

  return {
    rows: async (projectId: string) => rowsOf(await at(projectId)),
    order: async (projectId: string) => buildOrder(rowsOf(await at(projectId))),
    /** stories in progress, and built stories (done or approved), as of the log's head */
    worked: async (projectId: string) => {
      const e = await at(projectId);
      return { building: [...e.building.values()], built: [...e.built.values()] };
    },
  };
};

export type StoryMapBuildIndex = ReturnType<typeof storyMapBuildIndex>;
export const storymapBuildIndex = perApp(storyMapBuildIndex);
