import { z } from 'zod';

/** Who caused an event: every append names its actor and the role it acted in. */
export const ActorRef = z.object({
  actor_id: z.string(),
  actor_role: z.string(),
});
export type ActorRef = z.infer<typeof ActorRef>;

/** Per-append metadata the command path supplies; the store derives the rest. */
export const AppendMeta = ActorRef.extend({
  correlation_id: z.string().nullable(),
  causation_event_id: z.string().nullable(),
});
export type AppendMeta = z.infer<typeof AppendMeta>;

/** Content encrypted under a subject's key (crypto-shredding); see sealing.ts. */
export const SealedContent = z.object({
  subject: z.string(),
  iv: z.instanceof(Uint8Array),
  tag: z.instanceof(Uint8Array),
  ciphertext: z.instanceof(Uint8Array),
});
export type SealedContent = z.infer<typeof SealedContent>;

/**
 * An event exactly as stored. `data` is absent when the content is sealed; `hash` chains it to
 * the previous event of the same project. Positions are plain numbers (safe to 2^53).
 */
export const StoredRecord = z.object({
  event_id: z.string(),
  type: z.string(),
  schema_version: z.number().int().nonnegative(),
  data: z.record(z.string(), z.unknown()).optional(),
  sealed: SealedContent.optional(),
  project_id: z.string(),
  actor_id: z.string(),
  actor_role: z.string(),
  aggregate_type: z.string(),
  aggregate_id: z.string(),
  correlation_id: z.string().nullable(),
  causation_event_id: z.string().nullable(),
  created_at: z.string(),
  stream_name: z.string(),
  stream_version: z.number().int().positive(),
  global_position: z.number().int().positive(),
  cursor: z.number().int().positive(),
  prev_hash: z.string(),
  hash: z.string(),
});
export type StoredRecord = z.infer<typeof StoredRecord>;

/**
 * An event as readers see it: upcast to the latest schema version, sealed content opened
 * (or `shredded: true` with empty data once its key is destroyed).
 */
export type LogEvent = Omit<StoredRecord, 'data' | 'sealed'> & {
  data: Record<string, unknown>;
  shredded: boolean;
  /**
   * The subject a sealed record's content was sealed under (not secret: the record holds it in
   * clear), so a read model seals what it derives under the same one. Absent when not sealed.
   */
  seal?: string;
};

/** The envelope `sync_since` and `intentlog log --json` return (governance.md). */
export const SyncEnvelope = z.object({
  cursor: z.number().int().describe('strictly increasing within the project'),
  event_id: z.string(),
  project_id: z.string(),
  event_type: z.string().describe('key behaviour off this, e.g. work_package.claimed'),
  actor_id: z.string(),
  actor_role: z.string(),
  aggregate_type: z.string(),
  aggregate_id: z.string(),
  correlation_id: z.string().nullable(),
  causation_event_id: z.string().nullable(),
  created_at: z.string().describe('UTC ISO-8601 time'),
  payload: z.record(z.string(), z.unknown()).describe('ignore fields you do not know'),
});
export type SyncEnvelope = z.infer<typeof SyncEnvelope>;

export const toSyncEnvelope = (event: LogEvent): SyncEnvelope => ({
  cursor: event.cursor,
  event_id: event.event_id,
  project_id: event.project_id,
  event_type: event.type,
  actor_id: event.actor_id,
  actor_role: event.actor_role,
  aggregate_type: event.aggregate_type,
  aggregate_id: event.aggregate_id,
  correlation_id: event.correlation_id,
  causation_event_id: event.causation_event_id,
  created_at: event.created_at,
  payload: event.data,
});

/** The hash of the chain's first link, before a project's first event. */
export const GENESIS_HASH = '0'.repeat(64);
