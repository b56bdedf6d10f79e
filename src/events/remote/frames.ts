import { decode, encode } from '../codec.js';
import { framing } from './frame-format.js';

/**
 * Frames of the writer socket in the store's own codec, so whatever a record or read model can
 * hold (bigint stream versions, bytes, dates) survives the trip unchanged (frame-format.ts).
 */
export const { encodeFrame, frameReader } = framing({ encode, decode: (b) => decode<unknown>(b) });
