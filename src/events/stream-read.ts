import type {
  AggregateStreamOptions,
  Event,
  ReadStreamOptions,
  ReadStreamResult,
} from '@event-driven-io/emmett';
import type { LogReadEventMetadata } from './event-log.js';
import type { LogReadEvent } from './record-view.js';

type AnyEvent = { type: string; data: Record<string, unknown> };

/**
 * The versions a `readStream` asks for: `from` and `to` inclusive and 1-based, `to` winning
 * over `maxCount` (docs/decisions.md, "readStream ranges").
 */
export const readRange = (options?: { from?: bigint; to?: bigint; maxCount?: bigint }) => {
  const from = Number(options?.from ?? 1n);
  if (options?.to !== undefined) return { from, to: Number(options.to) };
  if (options?.maxCount !== undefined) return { from, to: from + Number(options.maxCount) - 1 };
  return { from, to: Number.MAX_SAFE_INTEGER };
};

/**
 * Emmett's answer to a `readStream`, from the events read (the caller's own array: it is
 * handed out) and the stream's current version: the events upcast by the caller's schema if it
 * has one, and `currentStreamVersion` the version of the last event read.
 */
export const streamReadResult = <E extends Event, P extends Event = E>(
  read: LogReadEvent[],
  current: number,
  options?: ReadStreamOptions<bigint, E, P>,
): ReadStreamResult<E, LogReadEventMetadata> => ({
  currentStreamVersion: read.at(-1)?.metadata.streamPosition ?? 0n,
  events: upcastRead(read, options?.schema) as never,
  streamExists: current > 0,
});

/** Read events upcast by the caller's Emmett schema, or the same array when it has no upcast. */
export const upcastRead = <T extends AnyEvent>(
  events: T[],
  schema?: { versioning?: { upcast?: unknown } },
): T[] => {
  const upcast = schema?.versioning?.upcast as ((e: AnyEvent) => AnyEvent) | undefined;
  return upcast ? events.map((e) => ({ ...e, ...upcast(e) })) : events;
};

type ReadStream = <E extends Event, P extends Event = E>(
  name: string,
  options?: ReadStreamOptions<bigint, E, P>,
) => Promise<ReadStreamResult<E, LogReadEventMetadata>>;

/** Emmett's `aggregateStream` over any store's `readStream`: the events read, folded. */
export const aggregateStreamOver =
  (readStream: ReadStream) =>
  async <State, E extends Event, P extends Event = E>(
    name: string,
    options: AggregateStreamOptions<State, E, LogReadEventMetadata, P>,
  ) => {
    const { currentStreamVersion, events, streamExists } = await readStream<E, P>(
      name,
      options.read,
    );
    const evolve = options.evolve as (state: State, event: unknown) => State;
    const state = (events as unknown[]).reduce<State>(evolve, options.initialState());
    return { currentStreamVersion, state, streamExists };
  };
