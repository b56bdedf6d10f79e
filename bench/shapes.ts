import { rawLevelDbRate, type IndexPlacement } from './appends.js';
import { fmt, median, pct } from './stats.js';

/**
 * `npm run bench:shapes`: what raw classic-level does with the durable batches a log could
 * write, beside the reference of `npm run bench` (bare records, 32 to a `sync: true` batch).
 * It prints, and writes nothing: the figures behind bench/README.md's "What the index entries
 * cost". Each shape runs once per round, the rounds interleaved; medians of 5.
 */
const EVENTS = 32_000;
const ROUNDS = 5;

const SHAPES: [string, number, IndexPlacement][] = [
  ['bare records, 32 a batch (the reference)', 32, 'none'],
  ['bare records, 16 a batch', 16, 'none'],
  ["32 a batch with the log's index entries", 32, 'with'],
  ["16 a batch with the log's index entries (what the log writes)", 16, 'with'],
  ['16 a batch, index entries in a second database, no sync', 16, 'apart'],
];

const runs = SHAPES.map(() => ({ rates: [] as number[], compaction: [] as number[] }));
for (let round = 0; round < ROUNDS; round++)
  for (const [i, [, batch, index]] of SHAPES.entries()) {
    const measured = await rawLevelDbRate(batch, EVENTS, index);
    runs[i]!.rates.push(measured.rate);
    runs[i]!.compaction.push(measured.compactionMb);
  }

const reference = median(runs[0]!.rates);
console.log(
  `${EVENTS.toLocaleString('en-US')} events of the log's record bytes, medians of ${ROUNDS} interleaved runs\n`,
);
console.log('| shape | events/s | vs the reference | MB written by compactions |');
console.log('| --- | ---: | ---: | ---: |');
for (const [i, [what]] of SHAPES.entries()) {
  const rate = median(runs[i]!.rates);
  console.log(
    `| ${what} | ${fmt(rate)} | ${pct(rate / reference)} | ${fmt(median(runs[i]!.compaction))} |`,
  );
}
