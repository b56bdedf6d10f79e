import * as crypto from 'node:crypto';

// The one-shot `crypto.hash` (Node 20.12+) costs a third less than a Hash object per call.
export const sha256Hex: (text: string | Uint8Array) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');
