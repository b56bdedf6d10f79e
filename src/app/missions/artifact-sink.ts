import type { EventLog } from '../../events/index.js';
import {
  MISSIONS_MODEL,
  missionsProjector,
  missionsQueries,
} from '../../projections/missions/desk.js';
import { modelKey } from '../../projections/projector.js';
import type { App } from '../app.js';
import type { WriterContext } from '../kernel-module.js';
import { registerSink, sinkReads, type SinkFailure } from '../sinks.js';
import type { ProjectMarks } from './artifact-marks.js';
import { projectArtifacts, reasonOf } from './artifact-projection.js';
import { missionsConfigOf } from './config.js';

/**
 * The missions artifacts as a file sink (issue 39): it follows the log from a checkpoint of its
 * own, not inside the projection engine, so no call waits on a file and a slow or full disk
 * refuses none. A burst of changes is coalesced: the projects touched since the last run are
 * written once, SETTLE_MS after the first change, each only where its rendered text changed
 * (the marks of artifact-marks.ts, kept beside the checkpoint). A project whose directory
 * cannot be written is reported (hai_health, /healthz) and tried again with backoff; the
 * checkpoint moves on without it.
 */
export const ARTIFACT_SINK = 'missions-artifacts';
const SETTLE_MS = 25;
const RETRY_MS = { first: 1_000, max: 30_000 };
/** A run under way this long is told as a failure of every project (a disk that hangs). */
const SLOW_MS = 10_000;

/** Where the sink keeps its place and marks: outside every read model's keyspace. */
/** The log position written up to, and the projects still owed a write (their dir failed). */
type SinkCheckpoint = { position: number; owed: string[] };
const SinkKeys = {
  checkpoint: sinkReads<SinkCheckpoint>().value(() => `${ARTIFACT_SINK}/checkpoint`),
  marks: sinkReads<ProjectMarks>().value(
    (projectId: string) => `${ARTIFACT_SINK}/marks/${modelKey(projectId)}`,
  ),
  allMarks: sinkReads<ProjectMarks>().range(() => `${ARTIFACT_SINK}/marks/`),
};

const handled = new Set(missionsProjector.handles);

/** The projects the missions events after `after` touch, and the position read up to. */
const touchedSince = async (log: Pick<EventLog, 'head' | 'readRaw'>, after: number) => {
  const head = await log.head();
  const projects = new Set<string>();
  let upTo = after;
  while (upTo < head) {
    const page = await log.readRaw({ after: upTo, limit: 500 });
    if (page.length === 0) break;
    for (const record of page) {
      if (!handled.has(record.type)) continue;
      const named = record.data?.project_id;
      projects.add(typeof named === 'string' ? named : record.project_id);
    }
    upTo = page.at(-1)!.global_position;
  }
  return { projects, upTo };
};

/** What tests, `hai_read_artifacts` and the bench ask of a running sink. */
export type ArtifactSink = {
  /** resolves once the files are written up to `position` (or the time is up: false) */
  settled(position: number, timeoutMs?: number): Promise<boolean>;
  failure(projectId: string): SinkFailure | undefined;
  /** files written or removed since this sink started */
  writes(): number;
};

const sinks = new WeakMap<App, ArtifactSink>();

/** The artifact sink this process runs for the app (undefined in a follower). */
export const artifactSinkOf = (app: App): ArtifactSink | undefined => sinks.get(app);

/** Starts the sink in the writer (the missions module's `onWriter`); answers its stop. */
export const startArtifactSink = async (writer: WriterContext): Promise<() => Promise<void>> => {
  const { app, log } = writer;
  const models = log.models;
  const stored = await SinkKeys.checkpoint.get(models);
  // no checkpoint: every project mounted here is looked at once, from this writer's start on
  let seen = stored?.position ?? (await writer.becameWriterAt);
  const dirty = new Set<string>(stored?.owed ?? []);
  /** projects whose directory failed: written again when the retry comes, not on every run */
  const owed = new Set<string>();
  let everyMounted = stored === undefined;
  // after a restart every project it wrote is looked at once: a file moved meanwhile is rewritten
  const marked = SinkKeys.allMarks.prefix();
  for (const [key] of await SinkKeys.allMarks.entries(models))
    dirty.add(decodeURIComponent(key.slice(marked.length)));

  const failing = new Map<string, SinkFailure>();
  let writes = 0;
  let runningSince: string | null = null;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;
  const waiters = new Set<{ position: number; done: (ok: boolean) => void }>();

  const report = (failure: Omit<SinkFailure, 'at'>, root = '') => {
    if (failing.get(failure.target)?.reason !== failure.reason)
      process.stderr.write(
        `intentlog: the missions artifacts of ${failure.target} were not written${root && ` to ${root}`}: ${failure.reason}\n`,
      );
    failing.set(failure.target, { ...failure, at: new Date().toISOString() });
  };

  /** One run: the projects touched since `seen`, written; the checkpoint and marks saved. */
  const run = async () => {
    runningSince = new Date().toISOString();
    try {
      const read = await touchedSince(log, seen);
      for (const p of read.projects) dirty.add(p);
      const { deviceId } = missionsConfigOf(app);
      if (everyMounted)
        for (const m of await missionsQueries(models).mountsOn(deviceId)) dirty.add(m.project_id);
      await writer.waitFor(read.upTo, [MISSIONS_MODEL]);
      const failed = new Set<string>();
      const ops = [];
      for (const project of [...dirty]) {
        const before = await SinkKeys.marks.get(models, project);
        const outcome = await projectArtifacts(models, deviceId, project, before);
        if (outcome.kind === 'failed') {
          failed.add(project);
          report({ target: project, reason: outcome.failure.reason }, outcome.failure.root);
          continue;
        }
        failing.delete(project);
        if (outcome.kind === 'written') {
          writes += outcome.changed;
          if (outcome.changed > 0 || before === undefined)
            ops.push({
              type: 'put' as const,
              key: SinkKeys.marks.key(project),
              value: outcome.marks,
            });
        }
      }
      for (const p of owed) if (!dirty.has(p)) failed.add(p);
      const checkpoint: SinkCheckpoint = { position: read.upTo, owed: [...failed] };
      await models.write([
        ...ops,
        { type: 'put', key: SinkKeys.checkpoint.key(), value: checkpoint },
      ]);
      failing.delete('*');
      dirty.clear();
      owed.clear();
      for (const p of failed) owed.add(p);
      everyMounted = false;
      seen = read.upTo;
      for (const w of waiters) if (w.position <= seen) w.done(true);
      failures = owed.size === 0 ? 0 : failures + 1;
      if (owed.size > 0) retryAfter(failures);
    } catch (error) {
      // the read model late or failed, the sink's own write refused: all of it is tried again
      report({ target: '*', reason: reasonOf(error) });
      retryAfter(++failures);
      return;
    } finally {
      runningSince = null;
    }
    // what came while it ran
    if ((await log.head()) > seen) later(SETTLE_MS);
  };
  const step = () => (chain = chain.then(run, run));
  /** The projects owed, and whatever is dirty, tried again after a backoff. */
  const retryAfter = (attempt: number) => {
    if (stopped || retry) return;
    const ms = Math.min(RETRY_MS.first * 2 ** (attempt - 1), RETRY_MS.max);
    retry = setTimeout(() => {
      retry = undefined;
      for (const p of owed) dirty.add(p);
      void step();
    }, ms);
    retry.unref();
  };
  /** A run after `ms`, unless one is already due sooner. */
  const later = (ms: number) => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void step();
    }, ms);
    timer.unref();
  };

  const sink: ArtifactSink = {
    settled(position, timeoutMs = 10_000) {
      if (position <= seen && dirty.size === 0) return Promise.resolve(true);
      if (timer) clearTimeout(timer);
      timer = undefined;
      void step();
      return new Promise<boolean>((resolve) => {
        const waiter = {
          position,
          done: (ok: boolean) => {
            clearTimeout(late);
            waiters.delete(waiter);
            resolve(ok);
          },
        };
        const late = setTimeout(() => waiter.done(false), timeoutMs);
        waiters.add(waiter);
      });
    },
    failure: (projectId) => {
      const slow = runningSince !== null && Date.now() - Date.parse(runningSince) > SLOW_MS;
      if (slow)
        return {
          target: projectId,
          reason: `slow: the artifact files are being written since ${runningSince}`,
          at: runningSince!,
        };
      return failing.get(projectId) ?? failing.get('*');
    },
    writes: () => writes,
  };
  sinks.set(app, sink);
  const unregister = registerSink(app, ARTIFACT_SINK, () => ({
    name: ARTIFACT_SINK,
    position: seen,
    failing: [...failing.values()],
    running_since: runningSince,
  }));
  const subscription = log.live().subscribe((event) => {
    if (handled.has(event.type)) later(SETTLE_MS);
  });
  // the first run waits a moment: the app is still opening (its configuration comes after)
  later(SETTLE_MS);

  return async () => {
    subscription.unsubscribe();
    if (timer) clearTimeout(timer);
    timer = undefined;
    // what was changed before the stop is written before the log closes
    await step();
    stopped = true;
    if (timer) clearTimeout(timer);
    if (retry) clearTimeout(retry);
    for (const w of waiters) w.done(false);
    unregister();
    if (sinks.get(app) === sink) sinks.delete(app);
  };
};
