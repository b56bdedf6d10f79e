import type { EventDefinition } from '../events/catalog/define.js';
import type { LogEvent, ModelStore } from '../events/index.js';

/** Read and write access to one projector's keyspace inside one engine batch. */
export type ModelTx = {
  /** sees this batch's own writes */
  get<T>(key: string): Promise<T | undefined>;
  /** `seal`: store the value encrypted under that subject's content key (see sealing.ts) */
  put(key: string, value: unknown, options?: { seal?: string }): void;
  del(key: string): void;
};

/**
 * A read model: a pure fold of the log into its own keyspace (`<name>/…`). Bumping `version`
 * rebuilds it from the log on the next start. Declare one with `defineProjector`.
 */
export type Projector = {
  name: string;
  version: number;
  /** event types it folds; every other event only advances its checkpoint */
  handles: readonly string[];
  apply(event: LogEvent, tx: ModelTx): Promise<void>;
  /**
   * A file projection's side effect (e.g. the missions artifacts): run by the live engine after
   * each batch is committed and before its position is reported folded, so read-your-writes
   * covers it; never by the audit's replay. Told the keys the batch wrote in this keyspace.
   * It must be safe to run twice. One that throws or overruns its deadline is reported on this
   * read model (phase `effect`), whose reads answer `unavailable` until it is run again with
   * the same keys and succeeds (with backoff, and after a restart); the others go on. An
   * effect that can fail for one part of its work (one project's files) should report that
   * part itself and not throw, as the missions artifacts do.
   */
  effect?: (keys: readonly string[], models: ModelStore) => Promise<void>;
};

/** A log event of one declared type, its data typed by the latest schema of that type. */
export type LogEventOf<D> =
  D extends EventDefinition<infer T, infer L>
    ? Omit<LogEvent, 'type' | 'data'> & { type: T; data: L }
    : never;

/**
 * Declares a read model over the event types it folds. `apply` receives each event typed by
 * its definition (switch on `event.type` and the data is known); the engine hands it only
 * these types, which the log validated against the same schemas on append.
 */
export const defineProjector = <const D extends readonly EventDefinition[]>(projector: {
  name: string;
  version: number;
  events: D;
  apply(event: LogEventOf<D[number]>, tx: ModelTx): Promise<void>;
  effect?: Projector['effect'];
}): Projector => ({
  name: projector.name,
  version: projector.version,
  handles: projector.events.map((e) => e.type),
  apply: (event, tx) => projector.apply(event as LogEventOf<D[number]>, tx),
  ...(projector.effect ? { effect: projector.effect } : {}),
});

/**
 * A key inside a projector's keyspace: its parts joined by `/`, each percent-encoded, so an id
 * holding `/` (ids may) can never be read as two parts or as another id's prefix.
 */
export const modelKey = (...parts: readonly string[]): string => parts.map(keyPart).join('/');

/** What `encodeURIComponent` leaves as it is: most ids, which then need no copy. */
const UNRESERVED = /^[\w.!~*'()-]*$/;
const keyPart = (part: string): string => (UNRESERVED.test(part) ? part : encodeURIComponent(part));

/** The prefix of every key under `parts` (for a range read), with its trailing `/`. */
export const modelKeyPrefix = (...parts: readonly string[]): string => `${modelKey(...parts)}/`;

export const checkpointKey = (name: string): string => `_checkpoint/${name}`;
/** Where an effect that failed waits to be run again (lane.ts); not part of the read model. */
export const OWED_EFFECT_PREFIX = '_effect/';
export const owedEffectKey = (name: string): string => `${OWED_EFFECT_PREFIX}${name}`;
export const modelPrefix = (name: string): string => `${name}/`;

export type Checkpoint = { version: number; position: number };
