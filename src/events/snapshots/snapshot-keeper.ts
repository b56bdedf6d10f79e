import type { SealedContent } from '../envelope.js';
import { seal, unseal } from '../sealing.js';
import type { FoldEntry } from '../fold-cache.js';
import type { SnapshotSpec } from './declare.js';
import { StateCodec } from './state-codec.js';
import type { SnapshotStore, StoredSnapshot } from './snapshot-store.js';

/** When a fold is written: every `every` events folded since the last one, or after a slow fold. */
export type SnapshotPolicy = { every: number; slowMs: number; enabled: boolean };

// INTENTLOG_SNAPSHOTS=off: neither read nor write (every answer is the same; loads fold from the
// first event, as the bench compares). Every 100 events keeps a load's tail under ~1 ms of folding;
// INTENTLOG_SNAPSHOT_EVERY changes it (the property test writes one per load).
export const defaultSnapshotPolicy = (): SnapshotPolicy => ({
  every: Number(process.env.INTENTLOG_SNAPSHOT_EVERY ?? 100) || 100,
  slowMs: 20,
  enabled: process.env.INTENTLOG_SNAPSHOTS !== 'off',
});

const SUBJECT = 'intentlog:snapshots';

let reported = false;
const reportOnce = (error: unknown): void => {
  if (reported) return;
  reported = true;
  process.stderr.write(
    `intentlog: a snapshot was not written (${String(error)}); loads fold instead\n`,
  );
};

/**
 * Reads and writes one store's snapshots for the store's loads. A snapshot that cannot be read
 * (another evolve version, another shred count, a destroyed key, bytes this build cannot
 * decode) is no snapshot: the stream is folded from its first event. Writes run after the
 * command has answered (setImmediate), one at a time, and a write that fails is reported once
 * and otherwise ignored. A shred or an import `invalidate`s: writes of folds that began before
 * it are dropped, the key goes, every snapshot goes.
 */
export const snapshotKeeper = (
  store: SnapshotStore,
  policy: SnapshotPolicy = defaultSnapshotPolicy(),
  onError: (error: unknown) => void = reportOnce,
) => {
  let epoch = 0;
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(job: () => Promise<T>): Promise<T> => {
    const run = chain.then(job, job);
    chain = run.catch(() => undefined);
    return run;
  };

  const open = async (stored: StoredSnapshot): Promise<Uint8Array | undefined> => {
    if (!stored.sealed) return stored.body;
    const key = await store.key(false);
    if (!key) return undefined;
    return openedBody(key, stored.body);
  };

  const write = async (spec: SnapshotSpec, stream: string, entry: FoldEntry, began: number) => {
    if (epoch !== began) return;
    const bytes = StateCodec.encode(entry.state);
    const sealed = entry.sealed === true;
    const key = sealed ? await store.key(true) : undefined;
    if (epoch !== began) return;
    const body = key ? sealedBody(key, bytes) : bytes;
    await store.put({ ...spec, stream, at: entry.version, tag: entry.tag, sealed, body });
  };

  return {
    policy,
    /** the count a load notes before it reads: a write of a fold begun before a shred is dropped */
    epoch: () => epoch,
    /** The state of the stream's snapshot, if one of this evolve version at most `upTo` opens. */
    async load(spec: SnapshotSpec, stream: string, upTo: number): Promise<FoldEntry | undefined> {
      if (!policy.enabled) return undefined;
      try {
        const stored = await store.get(spec.name, stream);
        if (!stored || stored.version !== spec.version || stored.at > upTo) return undefined;
        const body = await open(stored);
        if (!body) return undefined;
        return {
          state: StateCodec.decode(body),
          version: stored.at,
          ...(stored.tag === undefined ? {} : { tag: stored.tag }),
          sealed: stored.sealed,
          snapshotAt: stored.at,
        };
      } catch {
        return undefined;
      }
    },
    /** Writes `entry` after the answer when it is due; marks it written so it is asked once. */
    consider(spec: SnapshotSpec, stream: string, entry: FoldEntry, foldMs: number, began: number) {
      if (!policy.enabled) return;
      const since = entry.version - (entry.snapshotAt ?? 0);
      if (since <= 0 || (since < policy.every && foldMs < policy.slowMs)) return;
      entry.snapshotAt = entry.version;
      setImmediate(() => {
        serial(() => write(spec, stream, entry, began)).catch(onError);
      });
    },
    /** Every snapshot and the key go, after the writes under way; later writes of older folds too. */
    invalidate: () =>
      serial(async () => {
        epoch++;
        await store.clear();
      }),
    /** Resolves when the writes asked for so far are done (tests, close). */
    settled: () =>
      new Promise<void>((resolve) => setImmediate(() => void serial(async () => resolve()))),
  };
};

export type SnapshotKeeper = ReturnType<typeof snapshotKeeper>;

// A sealed body: AES-256-GCM (sealing.ts) as iv (12 bytes) ‖ tag (16) ‖ ciphertext.
const sealedBody = (key: Uint8Array, bytes: Buffer): Uint8Array => {
  const { iv, tag, ciphertext } = seal(SUBJECT, key, { b: bytes });
  return Buffer.concat([iv, tag, ciphertext]);
};

const openedBody = (key: Uint8Array, body: Uint8Array): Uint8Array => {
  const b = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const [iv, tag, ciphertext] = [b.subarray(0, 12), b.subarray(12, 28), b.subarray(28)];
  return unseal({ subject: SUBJECT, iv, tag, ciphertext } as SealedContent, key).b as Uint8Array;
};

/** What a log shows of its snapshots (EventLog.snapshots): for tests, status and an operator. */
export type SnapshotAccess = {
  get: SnapshotStore['get'];
  count: SnapshotStore['count'];
  list: SnapshotStore['list'];
  /** drops every snapshot (a cache: no answer changes) */
  clear(): Promise<void>;
  /** resolves once the writes asked for so far are done */
  settled(): Promise<void>;
};

export const snapshotAccess = (store: SnapshotStore, keeper: SnapshotKeeper): SnapshotAccess => ({
  get: (name, stream) => store.get(name, stream),
  count: () => store.count(),
  list: () => store.list(),
  clear: () => keeper.invalidate(),
  settled: () => keeper.settled(),
});
