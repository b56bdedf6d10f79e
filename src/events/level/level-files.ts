/**
 * LevelDB's on-disk formats, as far as checking them needs: CRC-32C (Castagnoli, masked as
 * LevelDB stores it), varints, snappy decompression (an index block may be compressed) and the
 * entries of a block. See leveldb/doc/log_format.md and table_format.md.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32C of the concatenated parts. */
export const crc32c = (...parts: Uint8Array[]): number => {
  let crc = 0xffffffff;
  for (const part of parts)
    for (let i = 0; i < part.length; i++) crc = CRC_TABLE[(crc ^ part[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
};

/** LevelDB stores CRCs masked (rotated and offset), so a CRC of data holding CRCs stays sound. */
export const unmaskCrc = (masked: number): number => {
  const rot = (masked - 0xa282ead8) >>> 0;
  return ((rot >>> 17) | (rot << 15)) >>> 0;
};

/** A varint (up to 64 bits, as a number: offsets and sizes stay far below 2^53). */
export const readVarint = (buf: Uint8Array, at: number): [value: number, next: number] => {
  let value = 0;
  for (let shift = 0, i = at; i < buf.length && shift < 64; shift += 7, i++) {
    value += (buf[i]! & 0x7f) * 2 ** shift;
    if ((buf[i]! & 0x80) === 0) return [value, i + 1];
  }
  throw new RangeError(`bad varint at ${at}`);
};

/** Snappy's raw format (no framing): what LevelDB compresses blocks with. */
export const snappyDecompress = (input: Buffer): Buffer => {
  const [length, start] = readVarint(input, 0);
  const out = Buffer.alloc(length);
  let o = 0;
  for (let i = start; i < input.length;) {
    const tag = input[i++]!;
    let len: number;
    let offset: number;
    switch (tag & 3) {
      case 0: {
        len = (tag >>> 2) + 1;
        if (len > 60) {
          const bytes = len - 60;
          len = input.readUIntLE(i, bytes) + 1;
          i += bytes;
        }
        if (i + len > input.length || o + len > length) throw new RangeError('bad literal');
        out.set(input.subarray(i, i + len), o);
        i += len;
        o += len;
        continue;
      }
      case 1:
        len = ((tag >>> 2) & 7) + 4;
        offset = ((tag >>> 5) << 8) | input[i++]!;
        break;
      case 2:
        len = (tag >>> 2) + 1;
        offset = input[i]! | (input[i + 1]! << 8);
        i += 2;
        break;
      default:
        len = (tag >>> 2) + 1;
        offset = input.readUInt32LE(i);
        i += 4;
    }
    if (offset === 0 || offset > o || o + len > length) throw new RangeError('bad copy');
    for (let k = 0; k < len; k++, o++) out[o] = out[o - offset]!;
  }
  if (o !== length) throw new RangeError('short snappy block');
  return out;
};

/** The values of a block's entries (keys are not needed to find the blocks they point at). */
export const blockValues = (block: Buffer): Buffer[] => {
  const restarts = block.readUInt32LE(block.length - 4);
  const end = block.length - 4 - 4 * restarts;
  if (end < 0) throw new RangeError('bad restart count');
  const values: Buffer[] = [];
  for (let at = 0; at < end;) {
    const [, a] = readVarint(block, at);
    const [unshared, b] = readVarint(block, a);
    const [valueLength, c] = readVarint(block, b);
    const valueAt = c + unshared;
    if (valueAt + valueLength > end) throw new RangeError('bad block entry');
    values.push(block.subarray(valueAt, valueAt + valueLength));
    at = valueAt + valueLength;
  }
  return values;
};

/** A block handle: offset and size, two varints. */
export const readHandle = (
  buf: Uint8Array,
  at = 0,
): { offset: number; size: number; next: number } => {
  const [offset, a] = readVarint(buf, at);
  const [size, next] = readVarint(buf, a);
  return { offset, size, next };
};
