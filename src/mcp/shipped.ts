import { readFileSync } from 'node:fs';

/**
 * A text file shipped with the package (`prompts/…`, `web/card.html`), by its path from the
 * package root. This file sits two levels below the root in `src/` and `dist/`, four in the
 * bench's build (`.tmp/bench-build/src/mcp`). Read once and kept: the texts never change while
 * a server runs. A missing file is a broken package, said plainly.
 */
const cache = new Map<string, string>();

export const shippedText = (path: string): string => {
  const known = cache.get(path);
  if (known !== undefined) return known;
  for (const up of ['../../', '../../../../'])
    try {
      const text = readFileSync(new URL(up + path, import.meta.url), 'utf8');
      cache.set(path, text);
      return text;
    } catch {
      // not there: try further up
    }
  throw new Error(`intentlog: the shipped file ${path} is missing from the package`);
};
