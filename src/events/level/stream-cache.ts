import type { LogEvent } from '../envelope.js';

/**
 * The writer's cache of whole streams, most recently used last. A command loads its
 * aggregate's stream on every call; keeping hot streams in memory makes that cost independent
 * of disk and of the log's size. Only the writer appends, so it can keep the cache exact:
 * committed events extend a cached stream, anything else drops it.
 */
export const streamCache = (limit = 50_000) => {
  const streams = new Map<string, readonly LogEvent[]>();
  let size = 0;
  // bumped by clear(): a read that began before a shred must not cache what it read
  let generation = 0;

  const drop = (name: string): void => {
    size -= streams.get(name)?.length ?? 0;
    streams.delete(name);
  };
  const put = (name: string, events: readonly LogEvent[]): void => {
    drop(name);
    if (events.length === 0 || events.length > limit / 10) return;
    streams.set(name, events);
    size += events.length;
    for (const oldest of streams.keys()) {
      if (size <= limit) break;
      drop(oldest);
    }
  };

  return {
    /** the whole stream, if cached and exactly `version` events long */
    get(name: string, version: number): readonly LogEvent[] | undefined {
      const events = streams.get(name);
      if (!events || events.length !== version) return undefined;
      streams.delete(name);
      streams.set(name, events);
      return events;
    },
    put,
    /** after a shred: cached events may hold content that must be gone */
    clear(): void {
      streams.clear();
      size = 0;
      generation++;
    },
    generation: () => generation,
    committed(events: readonly LogEvent[]): void {
      for (const e of events) {
        const cached = streams.get(e.stream_name);
        if (cached && cached.length === e.stream_version - 1) put(e.stream_name, [...cached, e]);
        else if (e.stream_version === 1) put(e.stream_name, [e]);
        else drop(e.stream_name);
      }
    },
  };
};
