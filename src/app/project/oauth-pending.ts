import type { OAuthClient } from '../../commands/project/oauth-grant.js';

/** How long a registration waits for its first consent; a client asked later registers again. */
export const PENDING_TTL_MS = 24 * 60 * 60_000;
/** At most this many wait at once: the oldest goes first (RFC 7591 clients re-register). */
export const PENDING_LIMIT = 1_000;

export type ClientMetadata = { client_name: string | null; redirect_uris: string[] };

/**
 * Registrations no person has consented to yet, held in the serving process and not in the
 * log: registration is open to anyone (RFC 7591), so appending one per call would let an
 * anonymous caller grow the log without bound. A registration reaches the log with the first
 * grant a person approves for it (oauth.ts), and is forgotten here then, after a day, or when
 * the limit pushes it out.
 */
export const pendingClients = (now: () => number) => {
  const waiting = new Map<string, ClientMetadata & { at: number }>();

  const live = (id: string) => {
    const entry = waiting.get(id);
    if (entry && now() - entry.at > PENDING_TTL_MS) waiting.delete(id);
    return waiting.get(id);
  };

  return {
    add(id: string, metadata: ClientMetadata): void {
      // a Map keeps insertion order: the first key is the oldest registration
      while (waiting.size >= PENDING_LIMIT) waiting.delete(waiting.keys().next().value!);
      waiting.set(id, { ...metadata, at: now() });
    },
    /** The registration as a client of the log would read, while it waits. */
    get(id: string): OAuthClient | undefined {
      const entry = live(id);
      return entry && { status: 'registered', ...metadataOf(entry) };
    },
    /** The registration's metadata, to append, if it waits. */
    metadata(id: string): ClientMetadata | undefined {
      const entry = live(id);
      return entry && metadataOf(entry);
    },
    forget(id: string): void {
      waiting.delete(id);
    },
  };
};

const metadataOf = ({ client_name, redirect_uris }: ClientMetadata): ClientMetadata => ({
  client_name,
  redirect_uris,
});
