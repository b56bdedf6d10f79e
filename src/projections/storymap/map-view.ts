import type { mapEvents } from '../../events/storymap/index.js';
import type { LogEventOf } from '../projector.js';
import type { EvidenceFlag, MapView, StoryView } from './views.js';

/*
 * The story map's own view (storymap.stories' `map/<project>` entry): the map, its vision,
 * activities, releases, decisions and the lists of flagged stories, folded from the map's
 * events. The stories' views are storymap/stories.ts's.
 */

type Folded = LogEventOf<(typeof mapEvents)[number]>;
type Of<T extends Folded['type']> = Extract<Folded, { type: T }>;

export const newMap = ({ data: d, created_at }: Of<'storymap.created'>): MapView => ({
  project_id: d.project_id,
  map_id: d.map_id,
  name: d.name,
  idea: d.idea,
  key_prefix: d.key_prefix,
  client: d.client,
  created_by: d.created_by,
  created_at,
  archived: false,
  archived_at: null,
  vision: {},
  activities: [],
  releases: [],
  decisions: [],
  last_activity_at: created_at,
  flagged: { ci_regressed: [], tests_predate_code: [] },
});

const FLAGS: EvidenceFlag[] = ['ci_regressed', 'tests_predate_code'];
/**
 * The map's lists of flagged stories, with `story`'s flags as its view now has them: the map
 * itself when no list changes (nearly every event), so the fold copies the map once per event.
 */
export const flag = (
  m: MapView,
  story: Pick<StoryView, 'id' | EvidenceFlag> | undefined,
): MapView => {
  if (!story) return m;
  let flagged = m.flagged;
  for (const f of FLAGS) {
    const listed = flagged[f].includes(story.id);
    if (Boolean(story[f]) === listed) continue;
    const list = listed ? flagged[f].filter((id) => id !== story.id) : [...flagged[f], story.id];
    flagged = { ...flagged, [f]: list };
  }
  return flagged === m.flagged ? m : { ...m, flagged };
};

const foldDecision = (m: MapView, e: Folded): MapView => {
  const at = e.created_at;
  switch (e.type) {
    case 'storymap.decision_logged': {
      const { project_id: _p, by, ...d } = e.data;
      const decision = {
        ...d,
        logged_by: by,
        logged_at: at,
        amended_at: null,
        retracted: false,
        retracted_at: null,
        retraction_reason: null,
      };
      return { ...m, decisions: [...m.decisions, decision] };
    }
    case 'storymap.decision_amended': {
      const { project_id: _p, by: _b, decision_id, ...changes } = e.data;
      const decisions = m.decisions.map((d) =>
        d.decision_id !== decision_id ? d : { ...d, ...changes, amended_at: at },
      );
      return { ...m, decisions };
    }
    case 'storymap.decision_retracted': {
      const { decision_id, reason } = e.data;
      const decisions = m.decisions.map((d) =>
        d.decision_id !== decision_id
          ? d
          : { ...d, retracted: true, retracted_at: at, retraction_reason: reason },
      );
      return { ...m, decisions };
    }
    default:
      return m;
  }
};

export const foldMap = (m: MapView, e: Folded): MapView => {
  const at = e.created_at;
  switch (e.type) {
    case 'storymap.archived':
      return { ...m, archived: true, archived_at: at };
    case 'storymap.restored':
      return { ...m, archived: false, archived_at: null };
    case 'storymap.vision_answered': {
      const vision = { ...m.vision };
      for (const [key, text] of Object.entries(e.data.answers))
        vision[key as keyof typeof vision] = { text, answered_at: at };
      return { ...m, vision };
    }
    case 'storymap.activity_added': {
      const { activity_id, name, position } = e.data;
      return { ...m, activities: [...m.activities, { activity_id, name, position }] };
    }
    case 'storymap.release_created':
    case 'storymap.release_renamed': {
      const { release_order, label } = e.data;
      const others = m.releases.filter((r) => r.release_order !== release_order);
      return {
        ...m,
        releases: [...others, { release_order, label }].sort(
          (a, b) => a.release_order - b.release_order,
        ),
      };
    }
    default:
      return foldDecision(m, e);
  }
};
