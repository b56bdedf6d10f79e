import { randomFillSync } from 'node:crypto';
import { V7Generator } from 'uuidv7';

/**
 * The library's default draws 8 random words per call into the OS generator; every appended
 * event takes an id, so ours draws 1,024 at a time from the same cryptographic source.
 */
const pooledRandom = () => {
  const words = new Uint32Array(1024);
  let next = words.length;
  return {
    nextUint32: (): number => {
      if (next === words.length) {
        randomFillSync(words);
        next = 0;
      }
      return words[next++]!;
    },
  };
};

const ids = new V7Generator(pooledRandom());
const uuidv7 = (): string => ids.generate().toString();

/** Event ids sort by creation time (UUIDv7), so an id alone orders events roughly in time. */
export const newEventId = (): string => `evt_${uuidv7()}`;

export const newId = (prefix: string): string => `${prefix}_${uuidv7()}`;

/** HAI-MCP's id form, `C-<uuidv7>` (owner challenges) and `I-<uuidv7>` (intakes). */
export const newDashedId = (prefix: string): string => `${prefix}-${uuidv7()}`;
