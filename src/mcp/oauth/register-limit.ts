/** Registrations one address may make per window (a host registers once per sign-in). */
export const REGISTRATIONS_PER_WINDOW = 30;
export const REGISTRATION_WINDOW_MS = 10 * 60_000;
/** Addresses remembered at most; windows that have ended are dropped first. */
const ADDRESSES = 10_000;

/**
 * A fixed window per client address for `POST /oauth/register`: open registration stays open,
 * but one address cannot churn out registrations (each is held in memory until its first
 * consent, app/project/oauth-pending.ts). Answers the seconds to wait when over the limit.
 */
export const registrationLimiter = (now: () => number = Date.now) => {
  const windows = new Map<string, { start: number; count: number }>();

  const prune = (at: number): void => {
    for (const [peer, w] of windows)
      if (at - w.start >= REGISTRATION_WINDOW_MS) windows.delete(peer);
    // every window still open: the oldest address goes
    while (windows.size >= ADDRESSES) windows.delete(windows.keys().next().value!);
  };

  return (peer: string): number | undefined => {
    const at = now();
    let w = windows.get(peer);
    if (!w || at - w.start >= REGISTRATION_WINDOW_MS) {
      if (!w && windows.size >= ADDRESSES) prune(at);
      windows.set(peer, (w = { start: at, count: 0 }));
    }
    if (w.count >= REGISTRATIONS_PER_WINDOW)
      return Math.max(1, Math.ceil((w.start + REGISTRATION_WINDOW_MS - at) / 1000));
    w.count++;
    return undefined;
  };
};
