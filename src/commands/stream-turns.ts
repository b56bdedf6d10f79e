/**
 * Turns on hot streams, per log: an attempt of a command (load, decide, append) on some streams
 * waits for the attempts before it on any of them. Without turns, N commands racing on one
 * stream in one process all load the same version and all but one lose the append; closed-loop
 * writers then lose again and again, and an unlucky one runs out of retries. With turns a
 * process never races itself: only another process's append can still make an attempt lose
 * (the expected version still decides, and the command path still retries with jitter).
 *
 * A turn on several streams is queued on all of them in one synchronous step, so every waiter
 * waits only on turns queued before its own: no cycle, no deadlock.
 */
const queues = new WeakMap<object, Map<string, Promise<void>>>();

export const inTurn = async <T>(
  log: object,
  streams: readonly string[],
  /** told whether the turn had to wait for another */
  body: (waited: boolean) => Promise<T>,
): Promise<T> => {
  let tails = queues.get(log);
  if (!tails) queues.set(log, (tails = new Map()));
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const names = [...new Set(streams)];
  const before = names.map((name) => tails.get(name));
  for (const name of names) tails.set(name, mine);
  try {
    const waits = before.filter((b) => b !== undefined);
    await Promise.all(waits);
    return await body(waits.length > 0);
  } finally {
    release();
    for (const name of names) if (tails.get(name) === mine) tails.delete(name);
  }
};
