import { setTimeout as sleep } from 'node:timers/promises';
import { ioCauseOf } from '../io-errors.js';
import { isReadOnlyFailure } from '../open-snapshot.js';
import { Observable } from '../rx.js';
import type { LogEvent } from '../envelope.js';
import { LogClosedError, WriterLostError } from './errors.js';
import type { Route } from './route.js';
import { withTimeout } from './timeouts.js';
import type { Role } from './types.js';

/** How long a call refused by a store being reopened waits before it asks the next writer. */
const REOPEN_RETRY_MS = 20;

/**
 * The writer refused a write (nothing written) because its store is being closed and opened
 * again (level/write-guard.ts): the call is sent again once there is a writer. Known by its code,
 * which crosses the socket.
 */
const isReopening = (error: unknown): boolean =>
  (error as { code?: unknown } | null)?.code === 'store_reopening';

/**
 * Finds the route for this process: become the writer or connect to it. `onLost` is for a
 * follower route to report that its writer went away; `closed` tells a long election to stop.
 */
export type Elect = (context: {
  onLost: () => void;
  closed: () => boolean;
  /** an attempt failed and the election goes on; undefined: it found a route */
  failing?: (error: unknown) => void;
}) => Promise<Route>;

/**
 * Holds the current route for the life of the process. When the writer goes away it elects
 * again at once (so the writer's work resumes even in an idle process), calls in flight are
 * retried on the new route, and live subscriptions resume from the last position they saw.
 */
export const routeKeeper = (elect: Elect) => {
  let closed = false;
  let current: Route | undefined;
  let electing: Promise<Route> | undefined;
  /** a writer stepping down after a failed write: the next election waits for its close */
  let recycling: Promise<void> | undefined;
  /**
   * Why the store could not be opened at the election's last attempt, when the cause is the
   * disk (full, read-only): calls are told at once rather than wait out their timeout for a
   * writer that cannot open until the disk is fixed.
   */
  let diskFault: unknown;

  /** The store failed a write: close this writer (releasing the data dir) and elect again. */
  const stepDown = (route: Route): void => {
    if (current !== route || closed) return;
    current = undefined;
    recycling = route.close().then(
      () => undefined,
      () => undefined,
    );
    ready().catch(() => {}); // resume the writer's work (read models) as soon as it can open
  };

  const onLost = (): void => {
    current = undefined;
    ready().catch(() => {}); // a caller, if any, sees the error on its own ready()
  };
  const ready = (): Promise<Route> => {
    if (closed) return Promise.reject(new LogClosedError());
    if (current) return Promise.resolve(current);
    electing ??= (recycling ?? Promise.resolve())
      .then(() =>
        elect({
          onLost,
          closed: () => closed,
          // a full or failing disk is told at once; a data dir this process may only read (a
          // read-only view) is not a fault: its followers wait for a writer as before
          failing: (error) =>
            (diskFault = ioCauseOf(error) && !isReadOnlyFailure(error) ? error : undefined),
        }),
      )
      .then(
        (route) => {
          electing = undefined;
          diskFault = undefined;
          recycling = undefined;
          current = route;
          void route.failed?.then(() => stepDown(route));
          return route;
        },
        (error: unknown) => {
          electing = undefined;
          throw error;
        },
      );
    return electing;
  };

  /** Runs `op` on the writer; `args` may depend on whether that is this process. */
  const invoke = (op: string, args: (role: Role) => unknown): Promise<unknown> =>
    // in the writer's own process every call takes this path: no election, nothing to lose
    current?.role === 'writer' && !closed
      ? current
          .request(op, args('writer'))
          .catch((error: unknown) =>
            isReopening(error) ? invokeRemote(op, args) : Promise.reject(error),
          )
      : invokeRemote(op, args);

  const invokeRemote = async (op: string, args: (role: Role) => unknown): Promise<unknown> => {
    for (;;) {
      // no writer yet (a takeover, a store being reopened): wait as long as the call may take,
      // unless the store cannot be opened for a reason only the disk's owner can fix
      if (!current && diskFault !== undefined) throw diskFault;
      const route = await withTimeout(op, ready());
      try {
        return await route.request(op, args(route.role));
      } catch (error) {
        if (isReopening(error)) await sleep(REOPEN_RETRY_MS);
        else if (!(error instanceof WriterLostError)) throw error;
      }
    }
  };

  const live = (): Observable<LogEvent> =>
    new Observable<LogEvent>((subscriber) => {
      let last: number | undefined;
      let stop: (() => void) | undefined;
      const attach = (): void => {
        ready().then(
          (route) => {
            if (subscriber.closed) return;
            stop = route.subscribe(last, {
              started: (after) => (last ??= after),
              next: (event) => {
                last = event.global_position;
                subscriber.next(event);
              },
              error: (error) =>
                error instanceof WriterLostError ? attach() : subscriber.error(error),
              complete: () => subscriber.complete(),
            });
          },
          (error: unknown) =>
            error instanceof LogClosedError ? subscriber.complete() : subscriber.error(error),
        );
      };
      attach();
      return () => stop?.();
    });

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    const route = current ?? (await electing?.catch(() => undefined));
    current = undefined;
    await route?.close();
  };

  return { ready, invoke, live, close, role: (): Role => current?.role ?? 'follower' };
};
