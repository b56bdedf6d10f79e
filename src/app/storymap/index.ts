import { randomUUID } from 'node:crypto';
import type { Principal } from '../../commands/principal.js';
import { decideCancel } from '../../commands/storymap/cancel.js';
import {
  parseCriteria,
  parseCriteriaOrRefuse,
  refuseProblems,
  withIds,
  type InputProblem,
} from '../../commands/storymap/criteria.js';
import { decideCreateStories, type NewStory } from '../../commands/storymap/create-stories.js';
import { requireMap, resolveStory } from '../../commands/storymap/refs.js';
import { loadMap, runBatch } from '../../commands/storymap/run.js';
import {
  decideSetSequence,
  decideUpdateStories,
  type StoryRow,
} from '../../commands/storymap/update-stories.js';
import type { StoryChanges, StoryStatus } from '../../events/storymap/index.js';
import type { App } from '../app.js';
import { perApp } from '../per-app.js';
import { callerOf, metaOf } from './access.js';
import { mapCommand, storyCommand } from './commands.js';
import { decisionWrites } from './decisions.js';
import { storyMapReads } from './read.js';
import { createProject } from './projects.js';

type In = { project_id: string };

/** Story rows as create_stories takes them (criteria still raw: parsed here, all at once). */
export type StoryInput = Omit<NewStory, 'story_id' | 'criteria'> & {
  acceptance_criteria?: unknown[];
};

export type UpdateRowInput = {
  id: string;
  expected_version?: number;
  status?: StoryStatus;
  release?: number;
  build_sequence?: number | null;
  dependencies?: string[];
} & Omit<StoryChanges, 'release_order'>;

const storyCriteria = (stories: readonly StoryInput[]) => {
  const problems: InputProblem[] = [];
  const parsed = stories.map((s, i) =>
    withIds(
      parseCriteria(s.acceptance_criteria ?? [], `stories[${i}].acceptance_criteria`, problems),
      randomUUID,
    ),
  );
  refuseProblems(problems);
  return parsed;
};

const toRow = ({
  id,
  expected_version,
  status,
  release,
  build_sequence,
  dependencies,
  ...changes
}: UpdateRowInput): StoryRow => ({
  story_id: id,
  ...(expected_version !== undefined ? { expected_version } : {}),
  ...(status !== undefined ? { status } : {}),
  ...(build_sequence !== undefined ? { build_sequence } : {}),
  ...(dependencies !== undefined ? { dependencies } : {}),
  changes: { ...changes, ...(release !== undefined ? { release_order: release } : {}) },
});

/** The story map's write side as its tools and the founder's CLI call it. */
export const storyMapService = (app: App) => {
  const reads = storyMapReads(app);
  return {
    reads,
    createProject: (
      args: { name: string; idea: string; client: string | null },
      principal: Principal,
    ) => createProject(app, args, principal),
    archive: (args: In, principal: Principal, archive: boolean) =>
      mapCommand(
        app,
        args,
        principal,
        (caller) => ({ type: archive ? 'ArchiveMap' : 'RestoreMap', data: { caller } }),
        (s) => ({ project_id: s.project_id, archived: s.archived }),
      ),
    setVision: (
      args: In & { answers?: Partial<Record<string, string>>; report?: string; confirm?: boolean },
      principal: Principal,
    ) =>
      mapCommand(
        app,
        args,
        principal,
        (caller) => ({ type: 'SetVision', data: { ...args, caller } }),
        () => undefined,
      ),
    renameRelease: (args: In & { release_order: number; label: string }, principal: Principal) =>
      mapCommand(
        app,
        args,
        principal,
        (caller) => ({ type: 'RenameRelease', data: { ...args, caller } }),
        (s) => s.releases.get(args.release_order),
      ),
    async setBuildSequence(
      args: In & { story_id: string; build_sequence: number | null },
      principal: Principal,
    ) {
      const caller = await callerOf(app, args.project_id, principal);
      const map = requireMap((await loadMap(app.log, args.project_id)).state);
      const { story_id } = resolveStory(map, args.story_id);
      const command = { story_ref: args.story_id, build_sequence: args.build_sequence, caller };
      return runBatch(app.log, {
        projectId: args.project_id,
        storyIds: [story_id],
        meta: metaOf(caller),
        decide: (m, [story]) => decideSetSequence(command, m, story!),
        respond: () => undefined,
      });
    },
    ...decisionWrites(app),

    async createStories(
      args: In & { stories: StoryInput[]; force?: boolean; source?: 'manual' | 'report' },
      principal: Principal,
    ) {
      const caller = await callerOf(app, args.project_id, principal);
      const criteria = storyCriteria(args.stories);
      const stories: NewStory[] = args.stories.map(({ acceptance_criteria: _c, ...s }, i) => ({
        ...s,
        story_id: randomUUID(),
        criteria: criteria[i]!,
      }));
      let skipped: string[] = [];
      const outcome = await runBatch(app.log, {
        projectId: args.project_id,
        storyIds: stories.map((s) => s.story_id),
        meta: metaOf(caller),
        decide: (map, loaded) => {
          const decided = decideCreateStories(
            { stories, force: args.force ?? false, source: args.source ?? 'manual', caller },
            map,
            loaded,
          );
          skipped = decided.skipped;
          return decided;
        },
        respond: (_map, after) => after.filter((s) => s.exists),
      });
      return { ...outcome, skipped };
    },

    async updateStories(args: In & { stories: UpdateRowInput[] }, principal: Principal) {
      const caller = await callerOf(app, args.project_id, principal);
      const rows = args.stories.map(toRow);
      let dependencies_updated = 0;
      const outcome = await runBatch(app.log, {
        projectId: args.project_id,
        storyIds: rows.map((r) => r.story_id),
        meta: metaOf(caller),
        decide: (map, loaded) => {
          const decided = decideUpdateStories({ rows, caller }, map, loaded);
          dependencies_updated = decided.dependencies_updated;
          return decided;
        },
        respond: (_map, after) => after,
      });
      return { ...outcome, dependencies_updated };
    },

    async cancel(
      args: In & { story_id: string; reason?: string },
      principal: Principal,
      cancel: boolean,
    ) {
      const caller = await callerOf(app, args.project_id, principal);
      const map = requireMap((await loadMap(app.log, args.project_id)).state);
      const { story_id } = resolveStory(map, args.story_id);
      return runBatch(app.log, {
        projectId: args.project_id,
        storyIds: [story_id],
        meta: metaOf(caller),
        decide: (m, loaded) =>
          decideCancel({ cancel, reason: args.reason ?? null, caller }, m, loaded),
        respond: (_m, [story]) => story!,
      });
    },

    addCriteria: (args: In & { story_id: string; criteria: unknown[] }, principal: Principal) => {
      const criteria = withIds(parseCriteriaOrRefuse(args.criteria), randomUUID);
      return storyCommand(
        app,
        args,
        principal,
        (caller) => ({ type: 'AddCriteria', data: { criteria, caller } }),
        (s) => ({ story: s, added: criteria }),
      );
    },
    updateCriterion: (
      args: In & {
        story_id: string;
        criterion_id: string;
        text?: string;
        priority?: 'must' | 'should';
        expected_version?: number;
      },
      principal: Principal,
    ) => {
      const { project_id: _p, story_id: _s, ...data } = args;
      return storyCommand(
        app,
        args,
        principal,
        (caller) => ({ type: 'UpdateCriterion', data: { ...data, caller } }),
        (s) => s,
      );
    },
    replaceCriteria: (
      args: In & { story_id: string; criteria: unknown[]; expected_version?: number },
      principal: Principal,
    ) => {
      const criteria = withIds(parseCriteriaOrRefuse(args.criteria), randomUUID);
      const data = {
        criteria,
        ...(args.expected_version !== undefined ? { expected_version: args.expected_version } : {}),
      };
      return storyCommand(
        app,
        args,
        principal,
        (caller) => ({ type: 'ReplaceCriteria', data: { ...data, caller } }),
        (s) => s,
      );
    },
    addNote: (args: In & { story_id: string; note: string }, principal: Principal) =>
      storyCommand(
        app,
        args,
        principal,
        (caller) => ({ type: 'AddNote', data: { note: args.note, caller } }),
        (s) => s,
      ),
    founderMark: (
      args: In & { story_id: string; to: 'ready_for_dev' | 'approved' },
      principal: Principal,
    ) =>
      storyCommand(
        app,
        args,
        principal,
        (caller) => ({ type: 'FounderMark', data: { to: args.to, caller } }),
        (s) => s,
      ),
  };
};

export const storymap = perApp(storyMapService);
