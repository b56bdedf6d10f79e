import { Observable } from '../rx.js';
import type { LogEvent } from '../envelope.js';
import type { EventLog } from '../event-log.js';

const PAGE = 1000;

/**
 * Committed events after a global position, then live ones: no gap and no repeat. It listens
 * first and buffers, reads the log from `after` to its end, then replays the buffer, dropping
 * anything at or below the last position it delivered. Used for a follower's subscription and
 * to resume one after a takeover.
 */
export const liveFrom = (log: EventLog, after: number): Observable<LogEvent> =>
  new Observable<LogEvent>((subscriber) => {
    let position = after;
    let caughtUp = false;
    const buffered: LogEvent[] = [];
    const deliver = (event: LogEvent): void => {
      if (event.global_position <= position) return;
      position = event.global_position;
      subscriber.next(event);
    };
    const live = log.live().subscribe({
      next: (event) => (caughtUp ? deliver(event) : buffered.push(event)),
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
    const catchUp = async (): Promise<void> => {
      for (;;) {
        const page = await log.readAll({ after: position, limit: PAGE });
        if (subscriber.closed) return;
        page.forEach(deliver);
        if (page.length < PAGE) break;
      }
      buffered.splice(0).forEach(deliver);
      caughtUp = true;
    };
    catchUp().catch((error: unknown) => subscriber.error(error));
    return () => live.unsubscribe();
  });
