import { createHash } from 'node:crypto';
import { Packr } from 'msgpackr';

// Self-describing maps (no shared record structures): stored bytes must decode in any process,
// with no structure table to keep in step.
const packr = new Packr({ useRecords: false, moreTypes: false });

export const encode = (value: unknown): Buffer => packr.pack(value);
export const decode = <T>(bytes: Uint8Array): T => packr.unpack(bytes) as T;

/**
 * Canonical JSON: keys sorted, no whitespace, bytes as base64. Used wherever equality of
 * meaning must be equality of bytes: hash-chain links and idempotency fingerprints.
 */
export const canonicalJson = (value: unknown): string => {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value).toString('base64'));
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
};

export const sha256Hex = (text: string | Uint8Array): string =>
  createHash('sha256').update(text).digest('hex');
