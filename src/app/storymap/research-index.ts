import MiniSearch from 'minisearch';
import type { DecisionView, MapView, StoryView } from '../../projections/storymap/views.js';
import type { App } from '../app.js';
import { lastProjectCursor } from '../project/cursor.js';
import { storymap } from './index.js';

/**
 * research's full-text index of one project: a document per story (title, user story,
 * criteria, notes, what was built, its status history) and one per decision. Kept per project
 * and brought up to date from the project's own events since it was built (by cursor), so a
 * question after a write re-indexes only the stories that write touched.
 */
export type ResearchDoc = {
  id: string;
  kind: 'story' | 'decision';
  ref: string;
  title: string;
  body: string;
  criteria: string;
  notes: string;
  history: string;
};

const FIELDS = ['ref', 'title', 'body', 'criteria', 'notes', 'history'] as const;
export const SEARCH_OPTIONS = {
  boost: { ref: 4, title: 3, criteria: 2, body: 1.5, notes: 1, history: 0.5 },
  prefix: (term: string) => term.length >= 3,
  fuzzy: (term: string) => (term.length >= 7 ? 0.2 : false),
  combineWith: 'OR',
} as const;

const newIndex = () =>
  new MiniSearch<ResearchDoc>({
    fields: [...FIELDS],
    storeFields: ['kind', 'ref'],
    searchOptions: SEARCH_OPTIONS,
  });

export const storyDoc = (s: StoryView): ResearchDoc => ({
  id: `story:${s.id}`,
  kind: 'story',
  ref: s.key,
  title: s.title,
  body: [s.activity, s.user_story.as_a, s.user_story.i_want, s.user_story.so_that]
    .filter(Boolean)
    .join(' '),
  criteria: s.acceptance_criteria.map((c) => c.text).join('\n'),
  notes: [s.notes, s.implementation_summary, s.implemented_files.join(' ')]
    .filter(Boolean)
    .join('\n'),
  history: s.history.map((h) => `${h.from} ${h.to} ${h.by}`).join(' '),
});

export const decisionDoc = (d: DecisionView): ResearchDoc => ({
  id: `decision:${d.decision_id}`,
  kind: 'decision',
  ref: d.decision_id.slice(0, 8),
  title: d.title,
  body: `${d.category} ${d.description}`,
  criteria: '',
  notes: d.retraction_reason ?? '',
  history: d.retracted ? 'retracted' : '',
});

type Entry = { cursor: number; index: MiniSearch<ResearchDoc>; decisions: string[] };

/** Past this many events since the index was built, building it again is cheaper. */
const REBUILD_AFTER = 2_000;

export const researchIndexes = (app: App) => {
  const reads = storymap(app).reads;
  const cache = new Map<string, Entry>();

  const putDecisions = (entry: Entry, map: MapView) => {
    for (const id of entry.decisions) if (entry.index.has(id)) entry.index.discard(id);
    const docs = map.decisions.map(decisionDoc);
    entry.index.addAll(docs);
    entry.decisions = docs.map((d) => d.id);
  };

  // the cursor is read before the read models are waited for: they then hold at least that much
  const build = async (projectId: string, map: MapView): Promise<Entry> => {
    const cursor = await lastProjectCursor(app.log, projectId);
    await reads.fresh();
    const entry: Entry = { cursor, index: newIndex(), decisions: [] };
    entry.index.addAll((await reads.stories(projectId)).map(storyDoc));
    putDecisions(entry, map);
    return entry;
  };

  /** The events of the project since `after`, or undefined when there are too many to replay. */
  const since = async (projectId: string, after: number) => {
    const events = await app.log.readProject(projectId, { after, limit: REBUILD_AFTER + 1 });
    return events.length > REBUILD_AFTER ? undefined : events;
  };

  const update = async (projectId: string, entry: Entry, map: MapView) => {
    const events = await since(projectId, entry.cursor);
    if (events === undefined) return build(projectId, map);
    if (events.length === 0) return entry;
    const touched = new Set<string>();
    let decisions = false;
    for (const e of events) {
      const story = e.data.story_id;
      if (typeof story === 'string' && e.type !== 'storymap.decision_logged') touched.add(story);
      if (e.type.startsWith('storymap.decision_')) decisions = true;
    }
    await reads.fresh();
    for (const id of touched) {
      const view = await reads.story(projectId, id);
      if (!view) continue;
      const doc = storyDoc(view);
      if (entry.index.has(doc.id)) entry.index.replace(doc);
      else entry.index.add(doc);
    }
    if (decisions) putDecisions(entry, map);
    entry.cursor = events[events.length - 1]!.cursor;
    return entry;
  };

  /** The project's index as of the read models' present (they are fresh after `reads.map`). */
  const indexOf = async (projectId: string, map: MapView) => {
    const known = cache.get(projectId);
    const entry = known ? await update(projectId, known, map) : await build(projectId, map);
    cache.set(projectId, entry);
    return entry.index;
  };

  return { indexOf };
};
