import type { LogEvent } from '../envelope.js';
import { toReadEvent, type LogReadEvent } from '../record-view.js';

/**
 * The writer's cache of whole streams, as Emmett read events, most recently used last. A
 * command loads its aggregate's stream on every call; keeping hot streams in memory, converted
 * once, makes that cost independent of disk and of the log's size. Only the writer appends, so
 * it can keep the cache exact: committed events extend a cached stream, anything else drops it.
 * A stream may take the whole budget (a story map of 20,000 events is one hot stream); the least
 * recently used others make room for it. The cache never shares its arrays (it extends them in place); the events in them are shared,
 * as Emmett's own in-memory store shares its events.
 */
export const streamCache = (limit = 50_000) => {
  const streams = new Map<string, LogReadEvent[]>();
  let size = 0;
  // bumped by clear(): a read that began before a shred must not cache what it read
  let generation = 0;

  const drop = (name: string): void => {
    size -= streams.get(name)?.length ?? 0;
    streams.delete(name);
  };
  const keep = (name: string, events: LogReadEvent[]): void => {
    streams.delete(name);
    streams.set(name, events);
    if (size > limit)
      for (const oldest of streams.keys()) {
        if (size <= limit) break;
        drop(oldest);
      }
  };
  /** Caches `events` as the whole stream: the array becomes the cache's own. */
  const adopt = (name: string, events: LogReadEvent[]): void => {
    drop(name);
    if (events.length === 0 || events.length > limit) return;
    size += events.length;
    keep(name, events);
  };

  return {
    /** a copy of the whole stream, if cached and exactly `version` events long */
    get(name: string, version: number): LogReadEvent[] | undefined {
      const events = streams.get(name);
      if (!events || events.length !== version) return undefined;
      keep(name, events);
      return events.slice();
    },
    /** the events after version `after`, if the stream is cached and exactly `version` long */
    since(name: string, version: number, after: number): LogReadEvent[] | undefined {
      const events = streams.get(name);
      if (!events || events.length !== version) return undefined;
      keep(name, events);
      return events.slice(after);
    },
    /** a stream read from disk; the caller keeps its array */
    put: (name: string, events: readonly LogReadEvent[]): void => adopt(name, events.slice()),
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
        if (cached && cached.length === e.stream_version - 1 && cached.length < limit) {
          cached.push(toReadEvent(e));
          size++;
          keep(e.stream_name, cached);
        } else if (e.stream_version === 1) adopt(e.stream_name, [toReadEvent(e)]);
        else drop(e.stream_name);
      }
    },
  };
};
