import type { SealedContent } from './envelope.js';
import type { IdempotencyClaim, IdempotencyRecord } from './event-log.js';
import { openSealed, type KeyLookup } from './record-view.js';
import { seal } from './sealing.js';

/**
 * An idempotency record as stored. When its append sealed content, the response (which may
 * repeat that content) is sealed too, under every subject the append sealed content under, one
 * layer per subject: shredding any of them makes the response unreadable, so a statement never
 * stands in plaintext in an idempotency record. `subjects` (outermost last) are not secret: they
 * are on the sealed records too.
 */
export type StoredIdempotency = {
  fingerprint: string;
  position: number;
  response?: unknown;
  sealed?: SealedContent;
  subjects?: string[];
};

export const storedIdempotency = (
  claim: IdempotencyClaim,
  position: number,
  subjects: readonly string[],
  keyFor: (subject: string) => Uint8Array,
): StoredIdempotency => {
  const base = { fingerprint: claim.fingerprint, position };
  if (subjects.length === 0) return { ...base, response: claim.response ?? null };
  let layer: unknown = { response: claim.response ?? null };
  for (const subject of subjects) layer = { layer: seal(subject, keyFor(subject), layer) };
  return { ...base, sealed: (layer as { layer: SealedContent }).layer, subjects: [...subjects] };
};

/** The record as readers get it: the response opened, or `shredded` once a key is gone. */
export const openIdempotency = (stored: StoredIdempotency, keyOf: KeyLookup): IdempotencyRecord => {
  const base = { fingerprint: stored.fingerprint, position: stored.position };
  if (!stored.sealed) return { ...base, response: stored.response ?? null };
  let sealed = stored.sealed;
  for (;;) {
    const opened = openSealed(sealed, keyOf(sealed.subject));
    if (!opened) return { ...base, response: null, shredded: true };
    if (!('layer' in opened)) return { ...base, response: opened.response ?? null };
    sealed = opened.layer as SealedContent;
  }
};

/** Raised inside a store when a scope is already recorded; the store opens it for the caller. */
export class StoredReplay extends Error {
  constructor(readonly stored: StoredIdempotency) {
    super('idempotency key already used');
  }
}

/** The distinct seal subjects of an append's events, in first-seen order. */
export const subjectsOfEvents = (
  events: Iterable<object>,
  subjectOf: (event: object) => string | undefined,
): string[] => {
  const subjects = new Set<string>();
  for (const e of events) {
    const subject = subjectOf(e);
    if (subject) subjects.add(subject);
  }
  return [...subjects];
};
