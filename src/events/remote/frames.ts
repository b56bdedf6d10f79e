import { decode, encode } from '../codec.js';

const HEADER_BYTES = 4;
/** Far above any sane frame (a page of a thousand events is well under 1 MiB): garbage guard. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024;

/**
 * One frame on the writer socket: a 4-byte big-endian length, then the msgpack body. The codec
 * is the store's own, so whatever a record or read model can hold (bigint stream versions,
 * bytes, dates) survives the trip unchanged.
 */
export const encodeFrame = (value: unknown): Buffer => {
  const body = encode(value);
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32BE(body.length);
  return Buffer.concat([header, body]);
};

/** Feeds socket chunks in; calls `onFrame` with each whole decoded frame, in order. */
export const frameReader = (onFrame: (value: unknown) => void) => {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk: Buffer): void => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= HEADER_BYTES) {
      const length = pending.readUInt32BE(0);
      if (length > MAX_FRAME_BYTES) throw new RangeError(`frame of ${length} bytes is too large`);
      if (pending.length < HEADER_BYTES + length) return;
      const body = pending.subarray(HEADER_BYTES, HEADER_BYTES + length);
      pending = pending.subarray(HEADER_BYTES + length);
      onFrame(decode<unknown>(body));
    }
  };
};
