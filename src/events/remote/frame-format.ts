const HEADER_BYTES = 4;
/** Far above any sane frame (a page of a thousand events is well under 1 MiB): garbage guard. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024;

export type FrameCodec = { encode(value: unknown): Uint8Array; decode(bytes: Uint8Array): unknown };

/**
 * One frame on the writer socket: a 4-byte big-endian length, then the body in `codec`.
 * frames.ts binds it to the store's own codec; a Hook binds it to msgpackr's pure-JS build.
 */
export const framing = (codec: FrameCodec) => ({
  encodeFrame: (value: unknown): Buffer => {
    const body = codec.encode(value);
    const header = Buffer.allocUnsafe(HEADER_BYTES);
    header.writeUInt32BE(body.length);
    return Buffer.concat([header, body]);
  },
  /** Feeds socket chunks in; calls `onFrame` with each whole decoded frame, in order. */
  frameReader: (onFrame: (value: unknown) => void) => {
    let pending: Buffer = Buffer.alloc(0);
    return (chunk: Buffer): void => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      while (pending.length >= HEADER_BYTES) {
        const length = pending.readUInt32BE(0);
        if (length > MAX_FRAME_BYTES) throw new RangeError(`frame of ${length} bytes is too large`);
        if (pending.length < HEADER_BYTES + length) return;
        const body = pending.subarray(HEADER_BYTES, HEADER_BYTES + length);
        pending = pending.subarray(HEADER_BYTES + length);
        onFrame(codec.decode(body));
      }
    };
  },
});
