import type { Subscription } from 'rxjs';
import type { App } from '../app/app.js';
import { matches, toRow, type EventFilter, type EventRow } from './event-rows.js';

const HEARTBEAT_MS = 15_000;
const encoder = new TextEncoder();

/**
 * GET /events: server-sent events from the log's live subscription, one `log` message per
 * committed event that passes the filter and the principal's view. Every open stream is kept so
 * that `closeAll` can end them when the server stops (an open stream would hold it up).
 */
export const liveStreams = (app: App, contextOf: (type: string) => string) => {
  const open = new Set<() => void>();
  const stream = (
    filter: EventFilter,
    visible: ReadonlySet<string> | undefined,
    reads: (row: EventRow) => Promise<boolean>,
  ): Response => {
    let subscription: Subscription | undefined;
    let heartbeat: NodeJS.Timeout | undefined;
    let end = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        // a client gone between two events: its stream ends, the subscription with it
        const send = (text: string) => {
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            end();
          }
        };
        end = () => {
          subscription?.unsubscribe();
          clearInterval(heartbeat);
          open.delete(end);
          try {
            controller.close();
          } catch {
            // already closed by the client
          }
        };
        open.add(end);
        send(': live\n\n');
        // whose an event is may need a read: the sends are chained, so they keep the log's order
        let sent = Promise.resolve();
        subscription = app.log.live().subscribe({
          next: (event) => {
            const row = toRow(event, contextOf);
            if (!matches(row, filter, visible)) return;
            sent = sent.then(async () => {
              if (await reads(row).catch(() => false))
                send(`event: log\nid: ${row.position}\ndata: ${JSON.stringify(row)}\n\n`);
            });
          },
          error: () => end(),
          complete: () => end(),
        });
        heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS);
      },
      cancel: () => end(),
    });
    return new Response(body, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      },
    });
  };
  return {
    stream,
    closeAll: () => {
      for (const end of [...open]) end();
    },
  };
};
