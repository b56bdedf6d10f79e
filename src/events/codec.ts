import { Packr } from 'msgpackr';
import { PACK_OPTIONS } from './pack-options.js';

const packr = new Packr(PACK_OPTIONS);

export const encode = (value: unknown): Buffer => packr.pack(value);
export const decode = <T>(bytes: Uint8Array): T => packr.unpack(bytes) as T;

/**
 * A string that is not well-formed UTF-16 (a lone surrogate, such as "a\ud800b") has no UTF-8
 * form: msgpack would store U+FFFD in its place, so the stored text would differ from the text
 * hashed and acknowledged. Such text is refused wherever it would be hashed or stored.
 */
export class MalformedTextError extends Error {
  readonly code = 'malformed_text';
  constructor(
    message = 'text contains a lone UTF-16 surrogate (not valid Unicode); send well-formed text',
  ) {
    super(message);
    this.name = 'MalformedTextError';
  }
}

/** msgpackr renames a `__proto__` key on decode (to keep prototypes safe): it cannot be stored. */
const storableKey = (key: string): string => {
  if (key === '__proto__') throw new MalformedTextError('"__proto__" cannot be a key');
  return wellFormed(key);
};

// `isWellFormed` is native since Node 20 (ES2024, newer than the lib this compiles against).
const isWellFormed = (text: string): boolean =>
  (text as string & { isWellFormed(): boolean }).isWellFormed();

/** `text` itself, if it is well-formed; else throws MalformedTextError. */
export const wellFormed = (text: string): string => {
  if (!isWellFormed(text)) throw new MalformedTextError();
  return text;
};

/** Throws MalformedTextError if any string or key anywhere in `value` could not be stored. */
export const assertWellFormed = (value: unknown): void => {
  if (typeof value === 'string') wellFormed(value);
  else if (Array.isArray(value)) value.forEach(assertWellFormed);
  else if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array))
    for (const [key, member] of Object.entries(value)) {
      storableKey(key);
      assertWellFormed(member);
    }
};

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Canonical JSON: keys sorted, no whitespace, bytes as base64, undefined members left out; text
 * that is not well-formed is refused (MalformedTextError), never hashed. Spec: docs/hash-chain.md.
 * Used wherever equality of meaning must be equality of bytes: hash-chain links and idempotency
 * fingerprints. It runs for every appended event, so it builds one string with no intermediate
 * arrays (a third faster than entries/filter/sort/map/join, byte for byte the same).
 */
export const canonicalJson = (value: unknown): string => {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(wellFormed(value));
  if (typeof value !== 'object')
    return typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
  if (value instanceof Uint8Array)
    return JSON.stringify(
      Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64'),
    );
  if (Array.isArray(value)) {
    let out = '[';
    // a hole is left empty, as `map` + `join` always did
    for (let i = 0; i < value.length; i++)
      out += (i > 0 ? ',' : '') + (i in value ? canonicalJson(value[i]) : '');
    return `${out}]`;
  }
  const object = value as Record<string, unknown>;
  let out = '{';
  for (const key of Object.keys(object).sort(byCodeUnit)) {
    const member = object[key];
    if (member === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(storableKey(key))}:${canonicalJson(member)}`;
  }
  return `${out}}`;
};

export { sha256Hex } from './sha256.js';
