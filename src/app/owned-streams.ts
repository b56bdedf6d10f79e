import { principalId, type Principal } from '../commands/principal.js';
import type { EventLog } from '../events/index.js';
import type { App } from './app.js';
import { perApp } from './per-app.js';

/**
 * The aggregates one principal owns inside a shared project: an intent task is its starter's
 * (the actor of its first event) and the SYSTEM principal's, and reaches no other member. Every
 * other aggregate is the project's: a member sees it.
 */
const OWNED_AGGREGATES: ReadonlySet<string> = new Set(['intent_task']);

/** What an event names of itself, enough to tell whose it is. */
export type Owned = { aggregate_type: string; stream_name: string };

// An owner never changes once its stream exists: each is read once, and the cache is bounded.
const OWNERS_KEPT = 10_000;

export const ownedStreams = (log: EventLog) => {
  const owners = new Map<string, string>();
  const ownerOf = async (stream: string): Promise<string | undefined> => {
    const known = owners.get(stream);
    if (known !== undefined) return known;
    const { events } = await log.readStream(stream, { to: 1n });
    const owner = events[0]?.metadata.actorId;
    if (owner === undefined) return undefined;
    if (owners.size >= OWNERS_KEPT) owners.clear();
    owners.set(stream, owner);
    return owner;
  };
  /** Whether the principal may see this event of a project it may see. */
  const mayRead = async (principal: Principal, event: Owned): Promise<boolean> =>
    principal.kind === 'system' ||
    !OWNED_AGGREGATES.has(event.aggregate_type) ||
    (await ownerOf(event.stream_name)) === principalId(principal);
  return {
    mayRead,
    /** The events the principal may see, in their order. */
    async visible<E extends Owned>(principal: Principal, events: readonly E[]): Promise<E[]> {
      const shown: E[] = [];
      for (const e of events) if (await mayRead(principal, e)) shown.push(e);
      return shown;
    },
  };
};

export type OwnedStreams = ReturnType<typeof ownedStreams>;

/** The app's one (its cache shared by the web view's pages and streams). */
export const owned = perApp((app: App) => ownedStreams(app.log));
