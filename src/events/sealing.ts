import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { assertWellFormed, decode, encode } from './codec.js';
import type { SealedContent } from './envelope.js';

/**
 * Crypto-shredding: an event's content may be sealed under a per-subject key kept outside the
 * log. Destroying the key makes the content unrecoverable while the hash chain, which covers
 * the ciphertext, still verifies.
 */
export const newSubjectKey = (): Buffer => randomBytes(32);

export const seal = (subject: string, key: Uint8Array, data: unknown): SealedContent => {
  // the chain covers only the ciphertext: text msgpack would alter must be refused here
  assertWellFormed(data);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(subject));
  const ciphertext = Buffer.concat([cipher.update(encode(data)), cipher.final()]);
  return { subject, iv, tag: cipher.getAuthTag(), ciphertext };
};

export const unseal = (sealed: SealedContent, key: Uint8Array): Record<string, unknown> => {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
  decipher.setAAD(Buffer.from(sealed.subject));
  decipher.setAuthTag(sealed.tag);
  return decode(Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]));
};

/** The metadata field a decider sets on an event to seal its data under a subject. */
export const sealSubjectOf = (event: object): string | undefined => {
  const meta = (event as { metadata?: unknown }).metadata as { seal?: unknown } | undefined;
  return typeof meta?.seal === 'string' ? meta.seal : undefined;
};
