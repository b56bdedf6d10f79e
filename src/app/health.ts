import type { WriteFault } from '../events/event-log.js';
import type { App } from './app.js';
import { sinksOf, type SinkHealth } from './sinks.js';

/** Which kind of store a `--store` value names; a URL is never echoed (it may hold a password). */
export const storeKind = (store: string | undefined): 'leveldb' | 'memory' | 'postgres' => {
  if (store === 'memory') return 'memory';
  if (store && /^postgres(ql)?:\/\//.test(store)) return 'postgres';
  return 'leveldb';
};

export type ReadModelHealth = {
  name: string;
  version: number;
  position: number;
  /** events of the log this read model has not folded yet */
  lag: number;
  error?: string;
};

export type Health = {
  /**
   * `ok`: the store takes writes and every read model folds; `degraded`: the store refuses
   * writes (`write_fault` says why), a read model failed its last fold, or none answered
   */
  status: 'ok' | 'degraded';
  /** `writer` appends itself; `follower` forwards to the process holding the data dir */
  role: 'writer' | 'follower';
  store: 'leveldb' | 'memory' | 'postgres';
  head: number;
  read_models: ReadModelHealth[];
  /**
   * The file sinks this process runs (the writer's: the missions artifacts), each with its lag
   * and the targets it could not write; one that fails makes the health `degraded`, while every
   * call still answers. Absent in a process that runs none.
   */
  sinks?: (SinkHealth & { lag: number })[];
  /** why the store refuses writes (a full disk: `ENOSPC`), while it does; reads still work */
  write_fault?: WriteFault;
  /** why the read models could not be asked (no writer reachable yet) */
  error?: string;
};

/**
 * The state of one app as `GET /healthz` and `intentlog status` tell it. The read models live
 * with the writer, so a follower asks it; a writer that cannot be reached is `degraded`, not a
 * failure of the health check itself.
 */
export const healthOf = async (app: App, store?: string): Promise<Health> => {
  const head = await app.log.head();
  const fault = await app.log.writeFault?.().catch(() => undefined);
  const sinks = sinksOf(app).map((s) => ({ ...s, lag: Math.max(0, head - s.position) }));
  const base = {
    role: app.log.role(),
    store: storeKind(store),
    head,
    ...(fault ? { write_fault: fault } : {}),
    ...(sinks.length > 0 ? { sinks } : {}),
  };
  try {
    const rows = await app.projections.status();
    const read_models = rows.map((r) => ({
      name: r.name,
      version: r.version,
      position: r.position,
      lag: Math.max(0, Math.max(head, r.head) - r.position),
      ...(r.error ? { error: r.error } : {}),
    }));
    const failing =
      fault !== undefined ||
      read_models.some((r) => r.error !== undefined) ||
      sinks.some((s) => s.failing.length > 0);
    return { status: failing ? 'degraded' : 'ok', ...base, read_models };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'degraded', ...base, read_models: [], error: message };
  }
};
