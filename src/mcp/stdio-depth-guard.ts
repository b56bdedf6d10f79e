import { StringDecoder } from 'node:string_decoder';
import { Transform } from 'node:stream';
import { JsonDepthScan, MAX_JSON_DEPTH } from './json-depth.js';

/**
 * The stdio wire's lines on their way to the SDK's transport, with every line that nests deeper
 * than MAX_JSON_DEPTH taken out and answered (`refuse`, with the id it names) instead. A line
 * may arrive in many chunks and a chunk may end inside a UTF-8 character: bytes are decoded with
 * a StringDecoder, so a character split across chunks stays whole. A refused line is not kept
 * (its depth is known long before its end).
 */
export const stdioDepthGuard = (
  refuse: (id: string | number | null) => void,
  max = MAX_JSON_DEPTH,
): Transform => {
  const decoder = new StringDecoder('utf8');
  let scan = new JsonDepthScan(max);
  let held: string[] = [];

  /** A piece of the current line: held while the line may pass, dropped once it cannot. */
  const take = (piece: string) => {
    scan.feed(piece);
    if (scan.tooDeep) held = [];
    else held.push(piece);
  };
  const endLine = (guard: Transform) => {
    scan.end();
    if (scan.tooDeep) refuse(scan.id);
    else guard.push(Buffer.from(`${held.join('')}\n`, 'utf8'));
    held = [];
    scan = new JsonDepthScan(max);
  };
  const feed = (guard: Transform, text: string) => {
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      take(text.slice(start, end));
      endLine(guard);
      start = end + 1;
    }
    if (start < text.length) take(text.slice(start));
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      feed(this, decoder.write(chunk));
      done();
    },
    flush(done) {
      feed(this, decoder.end());
      // an unterminated last line goes on as it came: the transport decides what it is
      if (held.length > 0 && !scan.tooDeep) this.push(Buffer.from(held.join(''), 'utf8'));
      done();
    },
  });
};
