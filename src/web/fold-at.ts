import type { Event, ReadEvent } from '@event-driven-io/emmett';
import type { App } from '../app/app.js';
import type { LogReadEventMetadata } from '../events/index.js';

type Folding<S, E extends Event> = { evolve(state: S, event: E): S; initialState(): S };

/**
 * An aggregate's state folded from its stream up to a global position (undefined: the whole
 * stream): how a page shows a context that keeps no read model (the missions desk) as of the
 * past, through the decider's own evolve.
 */
export const foldAt = async <S, E extends Event>(
  app: App,
  stream: string,
  decider: Folding<S, E>,
  at: number | undefined,
): Promise<{ state: S; folded: number }> => {
  const { events } = await app.log.readStream<E>(stream);
  let state = decider.initialState();
  let folded = 0;
  for (const event of events as ReadEvent<E, LogReadEventMetadata>[]) {
    if (at !== undefined && Number(event.metadata.globalPosition) > at) break;
    state = decider.evolve(state, event);
    folded++;
  }
  return { state, folded };
};
