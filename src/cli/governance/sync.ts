import { readFile, rename, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { App } from '../../app/app.js';
import { SYNC_PAGE_MAX } from '../../app/governance/index.js';
import { SYSTEM } from '../../commands/principal.js';
import { action, appCommand, note, out, position, withApp, type AppFlags } from '../options.js';
import { governance } from '../../app/governance/index.js';
import { stopSignal } from '../stop-signal.js';

type SyncFlags = AppFlags & {
  project: string;
  since: number;
  follow?: boolean;
  stateFile?: string;
  limit: number;
};

/** What `--state-file` keeps: the last cursor whose event was printed. */
type SyncState = { project_id: string; cursor: number };

const readState = async (file: string, project: string): Promise<number | undefined> => {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const state = JSON.parse(text) as Partial<SyncState>;
  if (state.project_id !== project || !Number.isSafeInteger(state.cursor))
    throw new TypeError(`${file} is the state of another project or not a sync state`);
  return state.cursor;
};

/** Written beside and renamed over: a crash leaves the old state or the new, never half. */
const saveState = async (file: string, state: SyncState): Promise<void> => {
  await writeFile(`${file}.tmp`, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
};

/**
 * Wakes the follower when an event of the project commits. Subscribed before the first read and
 * marked dirty by every commit, so an event committed while a page was being read is never
 * waited past; a timer is the safety net.
 */
const commits = (app: App, project: string, stop: Promise<void>) => {
  let dirty = false;
  let wake = () => {};
  const subscription = app.log.live().subscribe((e) => {
    if (e.project_id !== project) return;
    dirty = true;
    wake();
  });
  return {
    /** call before reading: commits from here on wake the next wait */
    reading: () => void (dirty = false),
    async wait(): Promise<void> {
      if (dirty) return;
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => ((wake = resolve), (timeout = setTimeout(resolve, 5_000)))),
        stop,
      ]);
      clearTimeout(timeout);
      wake = () => {};
    },
    close: () => subscription.unsubscribe(),
  };
};

const stopping = (): { stopped: () => boolean; promise: Promise<void> } => {
  let stopped = false;
  const promise = stopSignal().then(() => void (stopped = true));
  return { stopped: () => stopped, promise };
};

/**
 * A `sync_since` consumer: pages the project's events from a cursor, prints each envelope as one
 * NDJSON line and, with --state-file, saves the cursor after every page so a restart resumes
 * where it stopped (a crash between printing and saving prints that page again: at least once;
 * dedupe by cursor). --follow keeps going as events commit.
 */
const sync = async (app: App, flags: SyncFlags): Promise<void> => {
  const saved = flags.stateFile ? await readState(flags.stateFile, flags.project) : undefined;
  let cursor = saved ?? flags.since;
  const signal = stopping();
  const live = flags.follow ? commits(app, flags.project, signal.promise) : undefined;
  let printed = 0;
  try {
    for (;;) {
      live?.reading();
      const page = await governance(app)
        .syncSince({ project_id: flags.project, cursor, limit: flags.limit }, SYSTEM)
        .catch((error: unknown) => {
          // stopped: the app closed under a read (withApp), which is no failure
          if (signal.stopped()) return undefined;
          throw error;
        });
      if (!page) break;
      if (page.events.length > 0) {
        await out(page.events.map((e) => `${JSON.stringify(e)}\n`).join(''));
        printed += page.events.length;
        cursor = page.next_cursor;
        if (flags.stateFile)
          await saveState(flags.stateFile, { project_id: flags.project, cursor });
      }
      if (page.has_more) continue;
      if (!live || signal.stopped()) break;
      await live.wait();
      if (signal.stopped()) break;
    }
  } finally {
    live?.close();
  }
  note(`synced ${printed} events of ${flags.project} (cursor ${cursor})`);
};

export const syncCommand = (): Command =>
  appCommand('sync', "a sync_since consumer: print a project's events as NDJSON from a cursor")
    .requiredOption('--project <id>', 'the project to follow')
    .option('--since <cursor>', 'start after this cursor (a saved state wins)', position, 0)
    .option('--follow', 'keep printing events as they commit (until Ctrl-C)')
    .option('--state-file <file>', 'resume from and save the last printed cursor in this file')
    .option('--limit <n>', `events per page (1–${SYNC_PAGE_MAX})`, position, SYNC_PAGE_MAX)
    .action(action(async (flags: SyncFlags) => withApp(flags, (app) => sync(app, flags), 'read')));
