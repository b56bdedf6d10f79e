import {
  designEvents,
  runEvents,
  type DesignKind,
  type RunOnFailure,
} from '../../events/storymap/index.js';
import { defineProjector, modelKey, modelKeyPrefix, type LogEventOf } from '../projector.js';
import { readsOf } from '../read-model.js';

export const STORYMAP_RUNS = 'storymap.runs';

/** A build run as get_run and get_founder_todo read it. */
export type RunView = {
  project_id: string;
  run_id: string;
  number: number;
  key: string;
  title: string;
  story_ids: string[];
  concurrency: number;
  on_failure: RunOnFailure;
  status: 'draft' | 'approved' | 'paused' | 'stopped' | 'cancelled';
  reason: string | null;
  created_by: string;
  created_at: string;
  approved_by: string | null;
  approved_at: string | null;
  handed_out: { story_id: string; position: number; by: string; at: string }[];
  updated_at: string;
};

/** A design reference as get_story and get_design read it. */
export type DesignRefView = {
  id: string;
  story_id: string;
  kind: DesignKind;
  url: string;
  selector: string | null;
  attached_by: string;
  attached_at: string;
  content_hash: string | null;
  fetched_at: string | null;
  drifted: boolean;
};

export const RunKeys = {
  run: (projectId: string, runId: string) => modelKey('run', projectId, runId),
  runPrefix: (projectId: string) => modelKeyPrefix('run', projectId),
  design: (projectId: string, storyId: string, refId: string) =>
    modelKey('design', projectId, storyId, refId),
  designPrefix: (projectId: string, storyId: string) =>
    modelKeyPrefix('design', projectId, storyId),
};

/** The runs' reads: a project's runs, a story's design references. */
export const runsModel = {
  runs: readsOf<RunView>(STORYMAP_RUNS).range(RunKeys.runPrefix),
  designRefs: readsOf<DesignRefView>(STORYMAP_RUNS).range(RunKeys.designPrefix),
};

const events = [...runEvents, ...designEvents] as const;
type Folded = LogEventOf<(typeof events)[number]>;
type RunFolded = Exclude<Folded, { type: 'storymap.design_attached' | 'storymap.design_fetched' }>;

const foldRun = (view: RunView, e: RunFolded): RunView => {
  const at = { updated_at: e.created_at };
  switch (e.type) {
    case 'storymap.run_created':
      return view;
    case 'storymap.run_approved':
      return {
        ...view,
        ...at,
        status: 'approved',
        approved_by: e.data.by,
        approved_at: e.created_at,
      };
    case 'storymap.run_resumed':
      return { ...view, ...at, status: 'approved', reason: null };
    case 'storymap.run_paused':
      return { ...view, ...at, status: 'paused', reason: e.data.reason };
    case 'storymap.run_stopped':
      return { ...view, ...at, status: 'stopped', reason: e.data.reason };
    case 'storymap.run_cancelled':
      return { ...view, ...at, status: 'cancelled', reason: e.data.reason };
    case 'storymap.run_story_handed_out': {
      const { story_id, position, by } = e.data;
      return {
        ...view,
        ...at,
        handed_out: [...view.handed_out, { story_id, position, by, at: e.created_at }],
      };
    }
  }
};

const newRun = (e: Extract<Folded, { type: 'storymap.run_created' }>): RunView => {
  const { by, ...d } = e.data;
  return {
    ...d,
    status: 'draft',
    reason: null,
    created_by: by,
    created_at: e.created_at,
    approved_by: null,
    approved_at: null,
    handed_out: [],
    updated_at: e.created_at,
  };
};

/** Runs (one document each) and design references (one per reference), per project. */
export const storyMapRunsProjector = defineProjector({
  name: STORYMAP_RUNS,
  version: 1,
  events,
  async apply(e, tx) {
    if (e.type === 'storymap.design_attached') {
      const { project_id, story_id, ref_id, kind, url, selector, by } = e.data;
      const ref: DesignRefView = {
        id: ref_id,
        story_id,
        kind,
        url,
        selector,
        attached_by: by,
        attached_at: e.created_at,
        content_hash: null,
        fetched_at: null,
        drifted: false,
      };
      return tx.put(RunKeys.design(project_id, story_id, ref_id), ref);
    }
    if (e.type === 'storymap.design_fetched') {
      const key = RunKeys.design(e.data.project_id, e.data.story_id, e.data.ref_id);
      const ref = await tx.get<DesignRefView>(key);
      if (ref)
        tx.put(key, {
          ...ref,
          content_hash: e.data.content_hash,
          fetched_at: e.created_at,
          drifted: e.data.drifted,
        });
      return;
    }
    const key = RunKeys.run(e.data.project_id, e.data.run_id);
    if (e.type === 'storymap.run_created') return tx.put(key, newRun(e));
    const view = await tx.get<RunView>(key);
    if (view) tx.put(key, foldRun(view, e));
  },
});
