import type { Decider } from '@event-driven-io/emmett';
import type { DesignEvent, DesignKind } from '../../events/storymap/index.js';
import { streamName } from '../../events/index.js';
import { invalidArgument, notFound } from '../errors.js';
import { requireCapability, type Caller } from './access.js';

export type { DesignEvent };

export type DesignRef = {
  ref_id: string;
  kind: DesignKind;
  url: string;
  selector: string | null;
  content_hash: string | null;
};

/** A story's design references, on a stream of their own beside the story's. */
export type DesignState = { project_id: string; story_id: string; refs: readonly DesignRef[] };

export const designStream = (projectId: string, storyId: string): string =>
  streamName({ aggregateType: 'storymap.design', projectId, aggregateId: storyId });

export const initialDesign = (): DesignState => ({ project_id: '', story_id: '', refs: [] });

export const evolveDesign = (state: DesignState, event: DesignEvent): DesignState => {
  const { project_id, story_id } = event.data;
  switch (event.type) {
    case 'storymap.design_attached': {
      const { ref_id, kind, url, selector } = event.data;
      const ref = { ref_id, kind, url, selector, content_hash: null };
      return { project_id, story_id, refs: [...state.refs, ref] };
    }
    case 'storymap.design_fetched':
      return {
        project_id,
        story_id,
        refs: state.refs.map((r) =>
          r.ref_id === event.data.ref_id ? { ...r, content_hash: event.data.content_hash } : r,
        ),
      };
  }
};

export type DesignCommand =
  | {
      type: 'AttachDesign';
      data: {
        project_id: string;
        story_id: string;
        ref_id: string;
        kind: DesignKind;
        url: string;
        selector: string | null;
        caller: Caller;
      };
    }
  | {
      type: 'RecordFetch';
      data: {
        project_id: string;
        story_id: string;
        ref_id: string;
        content_hash: string;
        caller: Caller;
      };
    };

/** The same URL (and selector) twice is the same reference: it is not attached again. */
export const sameRef = (state: DesignState, url: string, selector: string | null) =>
  state.refs.find((r) => r.url === url && r.selector === selector);

export const decideDesign = (command: DesignCommand, state: DesignState): DesignEvent[] => {
  const { caller, ...data } = command.data;
  requireCapability(caller, 'edit');
  const on = { project_id: data.project_id, story_id: data.story_id, by: caller.actor_id };
  if (command.type === 'AttachDesign') {
    const { ref_id, kind, url, selector } = command.data;
    if (!url.trim()) throw invalidArgument('url must be a non-empty string', { field: 'url' });
    if (sameRef(state, url, selector)) return [];
    return [{ type: 'storymap.design_attached', data: { ...on, ref_id, kind, url, selector } }];
  }
  const ref = state.refs.find((r) => r.ref_id === command.data.ref_id);
  if (!ref)
    throw notFound(`No design reference ${command.data.ref_id} on this story.`, {
      ref_id: command.data.ref_id,
      valid_ref_ids: state.refs.map((r) => r.ref_id),
    });
  const { content_hash } = command.data;
  // the first fetch sets the baseline; only a later, different hash is drift
  const drifted = ref.content_hash !== null && ref.content_hash !== content_hash;
  return [
    { type: 'storymap.design_fetched', data: { ...on, ref_id: ref.ref_id, content_hash, drifted } },
  ];
};

export const designDecider: Decider<DesignState, DesignCommand, DesignEvent> = {
  decide: decideDesign,
  evolve: evolveDesign,
  initialState: initialDesign,
};
