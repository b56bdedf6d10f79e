import type { Catalog } from '../events/catalog/catalog.js';
import { GENESIS_HASH, verifyChain, type StoredRecord } from '../events/index.js';
import { openTransferableLog } from '../events/open-exclusive.js';
import { openSalvage, type Salvage, type SalvagedEntry } from '../events/open-salvage.js';
import { sealedSubjects } from '../events/record-import.js';

export type RepairReport = {
  /** records copied: positions 1..copied, every one checked */
  copied: number;
  /** the highest position the damaged store still held */
  sourceHead: number;
  /** the first position not copied and why; absent when everything was copied */
  stopped?: { position: number; reason: string };
};

const PAGE = 1000;

type Heads = Map<string, { cursor: number; hash: string }>;

/** Why this entry cannot follow what was copied so far, or undefined when it can. */
const problemOf = (entry: SalvagedEntry, expected: number, heads: Heads): string | undefined => {
  if (entry.position !== expected)
    return `positions ${expected}..${entry.position - 1} are missing`;
  if (!entry.record) return entry.problem ?? 'unreadable';
  const r = entry.record;
  if (r.global_position !== expected) return `the record says position ${r.global_position}`;
  const head = heads.get(r.project_id) ?? { cursor: 0, hash: GENESIS_HASH };
  const broken = verifyChain([r], head.hash, head.cursor);
  return broken && `project ${r.project_id}: ${broken.reason}`;
};

/** Copies the checked prefix of the salvage into the target, page by page. */
const copyPrefix = async (
  salvage: Salvage,
  importRecords: (records: StoredRecord[], keys: Map<string, Uint8Array>) => Promise<void>,
  onProgress?: (done: number, total: number) => void,
): Promise<RepairReport> => {
  const heads: Heads = new Map();
  let copied = 0;
  for (;;) {
    const page = await salvage.page(copied, PAGE);
    const good: StoredRecord[] = [];
    let reason: string | undefined;
    for (const entry of page) {
      reason = problemOf(entry, copied + good.length + 1, heads);
      if (reason) break;
      const r = entry.record!;
      heads.set(r.project_id, { cursor: r.cursor, hash: r.hash });
      good.push(r);
    }
    if (good.length > 0) await importRecords(good, await salvage.contentKeys(sealedSubjects(good)));
    copied += good.length;
    onProgress?.(copied, salvage.head);
    if (reason)
      return { copied, sourceHead: salvage.head, stopped: { position: copied + 1, reason } };
    if (page.length < PAGE) {
      if (copied < salvage.head) break;
      return { copied, sourceHead: salvage.head };
    }
  }
  return {
    copied,
    sourceHead: salvage.head,
    stopped: { position: copied + 1, reason: 'unreadable' },
  };
};

/**
 * `intentlog audit repair`: what is honest to do with a store that failed its checks. The
 * source is never written (it is read from a copy); its records are copied in position order
 * into a new data dir for as long as each one is readable, in place and continues its project's
 * chain, and the first one that is not stops the copy. Nothing after a gap is carried over in
 * silence: the report names the first position left behind and why.
 */
export const auditRepair = async (options: {
  from: string;
  into: string;
  /** every event type the log may hold (the registry's catalog) */
  catalog: Catalog;
  onProgress?: (done: number, total: number) => void;
}): Promise<RepairReport> => {
  const salvage = await openSalvage(options.from);
  try {
    const target = await openTransferableLog(options.into, options.catalog, { create: true });
    try {
      if ((await target.head()) > 0)
        throw new Error(`${options.into} already holds a log: repair copies into a new data dir`);
      return await copyPrefix(salvage, (r, k) => target.importRecords(r, k), options.onProgress);
    } finally {
      await target.close();
    }
  } finally {
    await salvage.close();
  }
};
