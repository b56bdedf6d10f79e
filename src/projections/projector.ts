import type { LogEvent } from '../events/index.js';

/** Read and write access to one projector's keyspace inside one engine batch. */
export type ModelTx = {
  /** sees this batch's own writes */
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): void;
  del(key: string): void;
};

/**
 * A read model: a pure fold of the log into its own keyspace (`<name>/…`). Bumping `version`
 * rebuilds it from the log on the next start.
 */
export type Projector = {
  name: string;
  version: number;
  /** event types it folds; every other event only advances its checkpoint */
  handles: readonly string[];
  apply(event: LogEvent, tx: ModelTx): Promise<void>;
};

export const checkpointKey = (name: string): string => `_checkpoint/${name}`;
export const modelPrefix = (name: string): string => `${name}/`;

export type Checkpoint = { version: number; position: number };
