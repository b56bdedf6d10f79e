import pg from 'pg';
import type { Observable } from 'rxjs';
import { Subject } from '../rx.js';
import type { LogEvent } from '../envelope.js';

const PAGE = 1000;

export type PgLiveOptions = {
  connectionString: string;
  channel: string;
  /** the longest a committed event of another instance waits to be seen when NOTIFY is lost */
  pollMs: number;
  readAll: (after: number, limit: number) => Promise<LogEvent[]>;
  /**
   * Told every error the tail survives (a failed read is retried on the next wake, a lost
   * listener reconnects): none is swallowed unseen.
   */
  onError: (error: unknown) => void;
};

/**
 * live() on PostgreSQL: one tail per instance follows the global log from the position it
 * last emitted, so subscribers get committed events of every instance exactly once and in
 * global order. It wakes on this instance's own commits (emitted straight from memory when
 * they are next in line), on NOTIFY from any instance, and on a timer as the fallback, so a
 * lost notification or a dropped listener connection delays an event by at most `pollMs`.
 * It starts with the first subscriber: an instance nobody follows holds no extra connection.
 */
export const pgLive = (options: PgLiveOptions) => {
  const subject = new Subject<LogEvent>();
  let emitted = 0;
  let started = false;
  let closed = false;
  let fetching: Promise<void> | undefined;
  let again = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let listener: pg.Client | undefined;

  const emit = (events: LogEvent[]) => {
    for (const event of events) {
      if (event.global_position !== emitted + 1) return false;
      emitted = event.global_position;
      subject.next(event);
    }
    return true;
  };

  const fetchAll = async (): Promise<void> => {
    do {
      again = false;
      for (;;) {
        const page = await options.readAll(emitted, PAGE).catch((error: unknown) => {
          options.onError(error);
          return [];
        });
        if (closed) return;
        emit(page);
        if (page.length < PAGE) break;
      }
    } while (again && !closed);
  };

  const wake = (): void => {
    if (!started || closed) return;
    if (fetching) {
      again = true;
      return;
    }
    fetching = fetchAll().finally(() => (fetching = undefined));
  };

  const listen = async (): Promise<void> => {
    if (closed) return;
    const client = new pg.Client({ connectionString: options.connectionString });
    const retry = () => {
      if (listener !== client) return;
      listener = undefined;
      client.end().catch(() => undefined);
      if (!closed) setTimeout(() => void listen(), options.pollMs).unref();
    };
    listener = client;
    client.on('error', (error) => {
      options.onError(error);
      retry();
    });
    client.on('end', retry);
    client.on('notification', wake);
    try {
      await client.connect();
      await client.query(`LISTEN "${options.channel}"`);
      wake(); // whatever committed while the listener was away
    } catch (error) {
      options.onError(error);
      retry();
    }
  };

  return {
    /** Nothing before this position is emitted (the log's head when this instance opened). */
    startAfter: (position: number) => {
      if (!started) emitted = Math.max(emitted, position);
    },
    /** This instance's own commits, in position order. */
    committed: (events: LogEvent[]): void => {
      if (!started) {
        emitted = Math.max(emitted, events.at(-1)?.global_position ?? 0);
        return;
      }
      if (fetching || !emit(events)) wake();
    },
    observable: (): Observable<LogEvent> => {
      if (!started && !closed) {
        started = true;
        timer = setInterval(wake, options.pollMs);
        timer.unref();
        void listen();
      }
      return subject.asObservable();
    },
    close: async (): Promise<void> => {
      closed = true;
      if (timer) clearInterval(timer);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
      await fetching;
      subject.complete();
    },
  };
};
