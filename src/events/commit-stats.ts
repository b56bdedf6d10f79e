/**
 * What the writer's group commit did, for `/metrics` (src/app/metrics.ts): one entry per durable
 * batch, in a ring each reader follows at its own pace, and the live subscribers of the log.
 * Process-wide, as the process's CPU and memory metrics are: one process is one writer (tests
 * that open many apps in one process see their sum). A reader that falls more than the ring's
 * length behind loses the oldest entries, never blocks the writer.
 */
export type BatchStat = {
  /** appends (commands) made durable together */
  appends: number;
  events: number;
  /** the durable write (`sync: true`) of the batch */
  write_seconds: number;
  /** each append's wait, from arriving at the committer to durable */
  waits: number[];
};

const RING = 2048;
const ring: BatchStat[] = [];
let written = 0;
let liveSubscribers = 0;

export const commitStats = {
  record(stat: BatchStat): void {
    ring[written % RING] = stat;
    written += 1;
  },
  /** The batches since `seen` (a count this reader keeps), and the new count. */
  since(seen: number): { batches: BatchStat[]; seen: number } {
    const from = Math.max(seen, written - RING);
    const batches: BatchStat[] = [];
    for (let i = from; i < written; i++) batches.push(ring[i % RING]!);
    return { batches, seen: written };
  },
  subscribed: (): void => void (liveSubscribers += 1),
  unsubscribed: (): void => void (liveSubscribers -= 1),
  liveSubscribers: (): number => liveSubscribers,
};
