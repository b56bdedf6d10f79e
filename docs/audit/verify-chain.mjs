#!/usr/bin/env node
// Verifies intentlog hash chains with nothing but Node's crypto (docs/hash-chain.md).
//   intentlog export --raw > records.ndjson && node verify-chain.mjs < records.ndjson
// Exits 0 and prints "ok: <n> records in <p> projects", or exits 1 naming the first bad record.
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';

const GENESIS = '0'.repeat(64);

// Canonical JSON: keys sorted by UTF-16 code units, no whitespace, JSON.stringify's escaping.
const canon = (v) =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? `[${v.map(canon).join(',')}]`
      : typeof v === 'object'
        ? `{${Object.keys(v)
            .sort()
            .map((k) => `${JSON.stringify(k)}:${canon(v[k])}`)
            .join(',')}}`
        : JSON.stringify(v);

const heads = new Map();
let count = 0;
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line === '') continue;
  const { hash, ...record } = JSON.parse(line);
  const head = heads.get(record.project_id) ?? { cursor: 0, hash: GENESIS };
  const where = `project ${record.project_id} cursor ${record.cursor} (${record.event_id})`;
  const fail = (why) => {
    console.error(`chain broken at ${where}: ${why}`);
    process.exit(1);
  };
  if (record.cursor !== head.cursor + 1) fail(`cursor gap after ${head.cursor}`);
  if (record.prev_hash !== head.hash) fail('prev_hash is not the previous record hash');
  const digest = createHash('sha256')
    .update(`${record.prev_hash}\n${canon(record)}`)
    .digest('hex');
  if (digest !== hash) fail(`hash ${hash} does not match the content (${digest})`);
  heads.set(record.project_id, { cursor: record.cursor, hash });
  count++;
}
console.log(`ok: ${count} records in ${heads.size} projects`);
