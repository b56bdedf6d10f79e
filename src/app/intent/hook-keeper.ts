import { watch, type FSWatcher } from 'node:fs';
import { isDomainError } from '../../commands/errors.js';
import { projectQueries } from '../../projections/project/queries.js';
import type { EventLog } from '../../events/event-log.js';
import type { App } from '../app.js';
import type { WriterContext } from '../kernel-module.js';
import { foldSpooled, hookHost, hookViewOf } from './hooks.js';
import { removeSpooled, spoolDir, spooled, sweepTemporaries, takeSpooled } from './hook-spool.js';
import { quarantine } from './hook-quarantine.js';
import { isRootHash, removeView, viewRoots, writeView } from './hook-view-file.js';
import { makeDirs } from '../../events/make-dirs.js';

/** A burst of writes rewrites a project's view once, this long after its first. */
const SETTLE_MS = 15;
/** A fold that failed (the read models unavailable) is tried again after this long. */
const RETRY_MS = 1_000;
/**
 * A record whose fold fails this often with anything but `unavailable` (a bug, a record the
 * checks let through) is quarantined, so it cannot hold back every record after it for ever.
 */
const FOLD_TRIES = 3;

/**
 * A record the log refuses (its task changed under it) is dropped, as the Hook would have
 * recorded nothing; a read model that did not answer in time (`unavailable`) is not a refusal:
 * the record stays and the fold is tried again.
 */
const refused = (error: unknown) => {
  if (!isDomainError(error) || error.code === 'unavailable') throw error;
};
const isUnavailable = (error: unknown) => isDomainError(error) && error.code === 'unavailable';

const say = (what: string, error: unknown) =>
  process.stderr.write(
    `intentlog: the intent Hooks' ${what} failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );

const isHooks = (type: string) => type.startsWith('intent.') || type.startsWith('root.');

/**
 * The projects whose Hook view the log's events after `seen` touch (ids and types only, nothing
 * unsealed), and the position read up to. That can be past the head read first: a page holds
 * what was appended while it was read, so waiting for the read models up to the head alone
 * could write a view without what was marked.
 */
export const readSince = async (
  log: Pick<EventLog, 'head' | 'readRaw'>,
  seen: number,
): Promise<{ projects: Set<string>; upTo: number }> => {
  const head = await log.head();
  const projects = new Set<string>();
  let upTo = seen;
  while (upTo < head) {
    const page = await log.readRaw({ after: upTo, limit: 500 });
    if (page.length === 0) break;
    for (const record of page) if (isHooks(record.type)) projects.add(record.project_id);
    upTo = page.at(-1)!.global_position;
  }
  return { projects, upTo };
};

/** The spool fold of each app that is the writer now (one process, one writer per data dir). */
const spoolFolds = new WeakMap<App, () => Promise<void>>();

/**
 * Folds what the spool holds now, when this process is the writer, and resolves once it has:
 * `intent_status` counts a Hook's candidate as soon as the Hook returned, not once the
 * directory watch fired (under load it had not yet, issue 42). A follower has no spool fold.
 */
export const foldSpoolNow = (app: App): Promise<void> =>
  spoolFolds.get(app)?.() ?? Promise.resolve();

/**
 * What the writer does for the Hooks while it holds the writer role (the intent module's
 * `onWriter`): folds the spool into the log — at once, and whenever a Hook adds to it — and
 * keeps each bound project's view file as the log says, rewriting it after every write that
 * touches the project's intent or its roots. Everything runs one step at a time; stopping
 * waits for the step under way and for the views owed, so a CLI write that exits leaves them
 * current. Only a data dir's own stores (LevelDB, Postgres with a local data dir) have one:
 * an in-memory store keeps nothing of the Hooks on disk.
 */
export const startHookKeeper = async (writer: WriterContext): Promise<() => Promise<void>> => {
  if (writer.app.storeKind === 'memory') return async () => {};
  const { dataDir } = writer.app;
  const host = hookHost(writer);
  const { log } = writer;
  const boundRoots = () => projectQueries(log.models).boundRoots();
  makeDirs(spoolDir(dataDir), 0o700);
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;
  const step = (what: string, job: () => Promise<void>): Promise<void> =>
    (chain = chain.then(job).catch((error: unknown) => void say(what, error)));

  const dirty = new Set<string>();
  // the log position the views are written up to: every refresh reads what came after it, so
  // an event the live stream had not delivered yet when a refresh or the stop came is never
  // missed; it starts at the head when this process became the writer, not now: a write that
  // came between (before its app answered its opening) would otherwise never mark its view
  let seen = await writer.becameWriterAt;
  let settle: ReturnType<typeof setTimeout> | undefined;
  const refresh = async () => {
    settle = undefined;
    const read = await readSince(log, seen);
    seen = read.upTo;
    for (const project of read.projects) dirty.add(project);
    if (dirty.size === 0) return;
    const projects = new Set(dirty);
    dirty.clear();
    try {
      // up to what was read, not the head read before it: a root bound while the pages were
      // read is marked already, and its read model must hold it when the views are written
      await writer.waitFor(read.upTo, ['intent.snapshot', 'projects']);
      const roots = await boundRoots();
      for (const root of viewRoots(dataDir)) if (!roots.has(root)) removeView(dataDir, root);
      // a root another context bound under a name of its own has no Hook to read a view
      for (const [root, project] of roots)
        if (projects.has(project) && isRootHash(root))
          writeView(dataDir, root, await hookViewOf(host, project));
    } catch (error) {
      // owed still: written on the next try (a read model late, a full disk)
      for (const project of projects) dirty.add(project);
      if (!stopped) settle ??= setTimeout(() => void step('view', refresh), RETRY_MS);
      throw error;
    }
  };
  const schedule = () => (settle ??= setTimeout(() => void step('view', refresh), SETTLE_MS));

  let retry: ReturnType<typeof setTimeout> | undefined;
  let folding = false;
  const failures = new Map<string, number>();
  /** Folds one entry, or sets it aside; throws when it must be tried again (it holds back the rest). */
  const foldOne = async (name: string): Promise<void> => {
    const taken = takeSpooled(dataDir, name);
    if (taken === undefined) return;
    // an entry that is no record (not a regular file, too long, ill-formed, altered) goes aside
    if ('refused' in taken) return quarantine(dataDir, name, taken.refused);
    try {
      await foldSpooled(host, taken.record).catch(refused);
    } catch (error) {
      const tries = (failures.get(name) ?? 0) + 1;
      if (isUnavailable(error) || tries < FOLD_TRIES) {
        if (!isUnavailable(error)) failures.set(name, tries);
        throw error;
      }
      failures.delete(name);
      const message = error instanceof Error ? error.message : String(error);
      return quarantine(dataDir, name, {
        reason: `its fold failed ${tries} times: ${message}`,
        bytes: null,
        sha256: null,
      });
    }
    failures.delete(name);
    removeSpooled(dataDir, name);
  };
  const fold = async () => {
    if (folding) return;
    folding = true;
    try {
      sweepTemporaries(dataDir);
      for (const name of spooled(dataDir)) {
        if (stopped) return;
        await foldOne(name);
      }
    } catch (error) {
      retry ??= setTimeout(() => ((retry = undefined), void step('spool', fold)), RETRY_MS);
      throw error;
    } finally {
      folding = false;
    }
  };

  spoolFolds.set(writer.app, () => step('spool', fold));
  // what Hooks spooled while no writer ran, before this writer's app answers its first call;
  // then every bound project's view once (a view missing, from an earlier release, or stale)
  await step('spool', fold);
  await step('view', async () => {
    for (const project of new Set((await boundRoots()).values())) dirty.add(project);
    await refresh();
  });
  const subscription = log.live().subscribe((event) => {
    if (isHooks(event.type)) schedule();
  });
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(spoolDir(dataDir), () => void step('spool', fold));
    watcher.on('error', () => watcher?.close());
  } catch {
    // no watching here: the spool is folded when the next writer starts
  }
  return async () => {
    stopped = true;
    spoolFolds.delete(writer.app);
    subscription.unsubscribe();
    watcher?.close();
    if (retry) clearTimeout(retry);
    if (settle) clearTimeout(settle);
    await step('view', refresh);
  };
};
