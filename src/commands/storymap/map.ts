import type { Decider } from '@event-driven-io/emmett';
import type { DecisionCategory, VisionKey } from '../../events/storymap/index.js';
import { invalidArgument, invalidState, notFound } from '../errors.js';
import { requireCapability, type Caller } from './access.js';
import {
  evolveMap,
  initialMap,
  type MapDecision,
  type MapEvent,
  type MapState,
} from './map-state.js';
import { requireMap, requireWritable, resolveStory } from './refs.js';
import { planVision, type VisionInput } from './vision.js';

/** Commands decided by the map's stream alone. */
export type MapCommand =
  | {
      type: 'CreateMap';
      data: {
        map_id: string;
        name: string;
        idea: string;
        key_prefix: string;
        client: string | null;
        caller: Caller;
        project_id: string;
      };
    }
  | { type: 'ArchiveMap'; data: { caller: Caller } }
  | { type: 'RestoreMap'; data: { caller: Caller } }
  | { type: 'SetVision'; data: VisionInput & { caller: Caller } }
  | { type: 'RenameRelease'; data: { release_order: number; label: string; caller: Caller } }
  | {
      type: 'LogDecision';
      data: {
        decision_id: string;
        title: string;
        description: string;
        category: DecisionCategory;
        story_ref: string | null;
        caller: Caller;
      };
    }
  | {
      type: 'AmendDecision';
      data: {
        decision_ref: string;
        title?: string;
        description?: string;
        category?: DecisionCategory;
        caller: Caller;
      };
    }
  | {
      type: 'RetractDecision';
      data: { decision_ref: string; reason: string | null; caller: Caller };
    }
  | {
      type: 'SetBuildSequence';
      data: { story_ref: string; build_sequence: number | null; caller: Caller };
    };

/** A decision by full id or a prefix that names exactly one. */
export const resolveDecision = (map: MapState, ref: string): MapDecision => {
  const exact = map.decisions.get(ref);
  if (exact) return exact;
  const matches = [...map.decisions.values()].filter((d) => d.decision_id.startsWith(ref));
  if (ref.length >= 4 && matches.length === 1) return matches[0]!;
  throw notFound(`No decision found matching "${ref}"`, {
    decision_id: ref,
    ...(matches.length > 1 ? { candidates: matches.map((d) => d.decision_id) } : {}),
  });
};

const writable = (state: MapState, caller: Caller): MapState => {
  requireCapability(caller, 'edit');
  return requireWritable(requireMap(state));
};

const createMap = (
  state: MapState,
  data: Extract<MapCommand, { type: 'CreateMap' }>['data'],
): MapEvent[] => {
  if (state.exists)
    throw invalidState('This project already has a story map', { project_id: state.project_id });
  const { caller, ...map } = data;
  return [{ type: 'storymap.created', data: { ...map, created_by: caller.actor_id } }];
};

const setVision = (
  state: MapState,
  data: Extract<MapCommand, { type: 'SetVision' }>['data'],
): MapEvent[] => {
  writable(state, data.caller);
  const plan = planVision(data, state.vision);
  const changed = (Object.entries(plan.answers) as [VisionKey, string][]).filter(
    ([key, text]) => state.vision[key] !== text,
  );
  if (changed.length === 0) return [];
  return [
    {
      type: 'storymap.vision_answered',
      data: {
        project_id: state.project_id,
        answers: Object.fromEntries(changed),
        source: plan.source,
        by: data.caller.actor_id,
      },
    },
  ];
};

const renameRelease = (
  state: MapState,
  data: Extract<MapCommand, { type: 'RenameRelease' }>['data'],
): MapEvent[] => {
  writable(state, data.caller);
  const label = data.label.trim();
  if (!label) throw invalidArgument('label must be a non-empty string', { field: 'label' });
  const previous = state.releases.get(data.release_order);
  if (previous === undefined)
    throw notFound(
      `Release ${data.release_order} doesn't exist yet. Create it first by placing a story in it.`,
      {
        release_order: data.release_order,
        releases: [...state.releases.keys()].sort((a, b) => a - b),
      },
    );
  if (previous === label) return [];
  const { project_id } = state;
  return [
    {
      type: 'storymap.release_renamed',
      data: { project_id, release_order: data.release_order, previous_label: previous, label },
    },
  ];
};

const amendDecision = (
  state: MapState,
  data: Extract<MapCommand, { type: 'AmendDecision' }>['data'],
): MapEvent[] => {
  writable(state, data.caller);
  const { decision_ref, caller, ...fields } = data;
  const changes = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  if (Object.keys(changes).length === 0)
    throw invalidArgument('Nothing to change: pass title, description or category.');
  const decision = resolveDecision(state, decision_ref);
  if (decision.retracted)
    throw invalidState('This decision was retracted; a retracted decision cannot be amended.', {
      decision_id: decision.decision_id,
    });
  const { project_id } = state;
  const { decision_id } = decision;
  return [
    {
      type: 'storymap.decision_amended',
      data: { project_id, decision_id, ...changes, by: caller.actor_id },
    },
  ];
};

const retractDecision = (
  state: MapState,
  data: Extract<MapCommand, { type: 'RetractDecision' }>['data'],
): MapEvent[] => {
  writable(state, data.caller);
  const decision = resolveDecision(state, data.decision_ref);
  if (decision.retracted)
    throw invalidState('This decision is already retracted.', {
      decision_id: decision.decision_id,
    });
  const { project_id } = state;
  const { decision_id } = decision;
  return [
    {
      type: 'storymap.decision_retracted',
      data: { project_id, decision_id, reason: data.reason, by: data.caller.actor_id },
    },
  ];
};

const archive = (state: MapState, caller: Caller, archived: boolean): MapEvent[] => {
  requireCapability(caller, 'own');
  requireMap(state);
  if (state.archived === archived)
    throw invalidState(
      archived ? 'The project is already archived.' : 'The project is not archived.',
    );
  const data = { project_id: state.project_id, by: caller.actor_id };
  return [archived ? { type: 'storymap.archived', data } : { type: 'storymap.restored', data }];
};

const decide = (command: MapCommand, state: MapState): MapEvent[] => {
  switch (command.type) {
    case 'CreateMap':
      return createMap(state, command.data);
    case 'ArchiveMap':
      return archive(state, command.data.caller, true);
    case 'RestoreMap':
      return archive(state, command.data.caller, false);
    case 'SetVision':
      return setVision(state, command.data);
    case 'RenameRelease':
      return renameRelease(state, command.data);
    case 'LogDecision': {
      const { caller, story_ref, ...decision } = command.data;
      writable(state, caller);
      const title = decision.title.trim();
      if (!title || !decision.description.trim())
        throw invalidArgument('title and description must be non-empty strings');
      const story_id = story_ref === null ? null : resolveStory(state, story_ref).story_id;
      const data = {
        project_id: state.project_id,
        ...decision,
        title,
        story_id,
        by: caller.actor_id,
      };
      return [{ type: 'storymap.decision_logged', data }];
    }
    case 'AmendDecision':
      return amendDecision(state, command.data);
    case 'RetractDecision':
      return retractDecision(state, command.data);
    case 'SetBuildSequence': {
      writable(state, command.data.caller);
      const { story_id } = resolveStory(state, command.data.story_ref);
      const { build_sequence } = command.data;
      if (build_sequence !== null && (!Number.isSafeInteger(build_sequence) || build_sequence < 1))
        throw invalidArgument('build_sequence must be a whole number from 1, or null', {
          build_sequence,
        });
      if ((state.sequence.get(story_id) ?? null) === build_sequence) return [];
      return [
        {
          type: 'storymap.build_sequence_set',
          data: { project_id: state.project_id, story_id, build_sequence },
        },
      ];
    }
  }
};

export const mapDecider: Decider<MapState, MapCommand, MapEvent> = {
  decide,
  evolve: evolveMap,
  initialState: initialMap,
};
