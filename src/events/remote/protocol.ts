import { z } from 'zod';
import { WireError } from './errors.js';

/**
 * The writer socket protocol. A follower sends requests `{id, op, args}`; the writer answers
 * each with `{id, ok, result | error}`. The op `live` opens a subscription: its answer carries
 * the position it starts after, then stream frames `{id, event}` follow until the follower
 * sends `{id, cancel}` or the writer ends it with `{id, end, error?}`.
 */
export const LIVE_OP = 'live';

const id = z.number().int().nonnegative();

export const Request = z.object({ id, op: z.string(), args: z.unknown() });
export const Cancel = z.object({ id, cancel: z.literal(true) });
export const ClientFrame = z.union([Request, Cancel]);
export type ClientFrame = z.infer<typeof ClientFrame>;

export const Reply = z.union([
  z.object({ id, ok: z.literal(true), result: z.unknown() }),
  z.object({ id, ok: z.literal(false), error: WireError }),
]);
export const StreamEvent = z.object({ id, event: z.unknown() });
export const StreamEnd = z.object({ id, end: z.literal(true), error: WireError.optional() });
// Order matters: an end frame would also pass as an event frame with no event.
export const ServerFrame = z.union([Reply, StreamEnd, StreamEvent]);
export type ServerFrame = z.infer<typeof ServerFrame>;

export const LiveArgs = z.object({ after: z.number().int().nonnegative().optional() });
export const LiveStarted = z.object({ after: z.number().int().nonnegative() });
