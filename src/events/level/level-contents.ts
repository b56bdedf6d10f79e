import { readHandle, readVarint, snappyDecompress } from './level-files.js';
import { logRecords } from './level-verify.js';

const TABLE_MAGIC = Buffer.from('57fb808b247547db', 'hex');
const FOOTER = 48;

/**
 * A block's entries as a reader recovers them: each key whole (a block stores only what a key
 * does not share with the one before it) and its value.
 */
const blockEntries = (block: Buffer): Buffer[] => {
  const restarts = block.readUInt32LE(block.length - 4);
  const end = block.length - 4 - 4 * restarts;
  const out: Buffer[] = [];
  let key = Buffer.alloc(0);
  for (let at = 0; at < end;) {
    const [shared, a] = readVarint(block, at);
    const [unshared, b] = readVarint(block, a);
    const [valueLength, c] = readVarint(block, b);
    key = Buffer.concat([key.subarray(0, shared), block.subarray(c, c + unshared)]);
    out.push(key, block.subarray(c + unshared, c + unshared + valueLength));
    at = c + unshared + valueLength;
  }
  return out;
};

/** Every data block's entries of a table file (Snappy-compressed blocks decompressed). */
const tableContents = (bytes: Buffer): Buffer[] => {
  if (bytes.length < FOOTER || !bytes.subarray(bytes.length - 8).equals(TABLE_MAGIC)) return [];
  const block = ({ offset, size }: { offset: number; size: number }): Buffer => {
    const data = bytes.subarray(offset, offset + size);
    return bytes[offset + size] === 1 ? snappyDecompress(data) : data;
  };
  const footer = bytes.subarray(bytes.length - FOOTER);
  const index = readHandle(footer, readHandle(footer).next);
  const entries = blockEntries(block(index));
  const contents: Buffer[] = [];
  for (let i = 1; i < entries.length; i += 2)
    contents.push(...blockEntries(block(readHandle(entries[i]!))));
  return contents;
};

/**
 * What a reader could recover from one LevelDB file beyond its raw bytes, for a search of a
 * data dir for text that must not be there: a table's blocks are Snappy-compressed and its keys
 * prefix-compressed, so a stored text need not appear in the file as one run of bytes; a
 * write-ahead log splits a record that crosses a 32 KiB block with a header. Answers the
 * decompressed entries of a table and the whole records of a log or MANIFEST; nothing for
 * other files, or a file too damaged to parse (its raw bytes are still searched).
 */
export const levelFileContents = (name: string, bytes: Buffer): Buffer[] => {
  try {
    if (name.endsWith('.ldb') || name.endsWith('.sst')) return tableContents(bytes);
    if ((name.endsWith('.log') && name !== 'LOG') || name.startsWith('MANIFEST-'))
      return logRecords(bytes);
  } catch {
    // a torn or foreign file: only its raw bytes are searched
  }
  return [];
};
