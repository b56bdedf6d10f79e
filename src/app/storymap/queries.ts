import type { Principal } from '../../commands/principal.js';
import { principalId } from '../../commands/principal.js';
import type { StoryStatus } from '../../events/storymap/index.js';
import type { BuildOrder, OrderRow } from '../../projections/storymap/order.js';
import { storyMapModel } from '../../projections/storymap/stories.js';
import type { StoryView } from '../../projections/storymap/views.js';
import { projectQueries } from '../../projections/project/queries.js';
import type { App } from '../app.js';
import { buildDetail } from './build-reads.js';
import { visionState, type StoryMapReads } from './read.js';

export const live = (rows: readonly OrderRow[]) => rows.filter((r) => r.cancelled_at === null);
export const byNumber = (a: { number: number }, b: { number: number }) => a.number - b.number;

export const summaryRow = (r: OrderRow) => ({
  id: r.id,
  key: r.key,
  title: r.title,
  status: r.status,
  activity: r.activity,
  release: r.release,
  priority: r.priority,
  effort: r.effort,
  criteria_count: r.criteria_count,
  passing_count: r.passing_ids.length,
  version: r.version,
  ...(r.cancelled_at
    ? { cancelled_at: r.cancelled_at, cancellation_reason: r.cancellation_reason }
    : {}),
});

export const countsOf = (rows: readonly OrderRow[]) => {
  const counts: Record<StoryStatus, number> = {
    todo: 0,
    ready_for_dev: 0,
    in_progress: 0,
    needs_rework: 0,
    done: 0,
    approved: 0,
  };
  for (const r of live(rows)) counts[r.status]++;
  return counts;
};

/** Every project the caller holds a story-map role in (the local user: every map). */
export const listProjects = async (app: App, reads: StoryMapReads, principal: Principal) => {
  await reads.fresh();
  const maps = await storyMapModel.maps.values(app.log.models);
  let reachable = maps;
  if (principal.kind === 'actor') {
    const mine = await projectQueries(app.log.models).membershipsOf(principalId(principal));
    const ids = new Set(mine.filter((m) => m.roles.storymap).map((m) => m.project_id));
    reachable = maps.filter((m) => ids.has(m.project_id));
  }
  return reachable.map((m) => {
    const v = visionState(m);
    return {
      id: m.project_id,
      name: m.name,
      description: m.idea,
      created_at: m.created_at,
      archived: m.archived,
      // no IntentDocs CLI syncs into this ledger: every project is local
      has_synced: false,
      vision_status: v.status,
      vision_progress: v.progress,
      constitution_status: v.status,
      constitution_progress: v.progress,
    };
  });
};

type ListArgs = {
  status?: StoryStatus;
  activity?: string;
  release?: number;
  limit?: number;
  fields?: string[];
};

export const listStories = async (
  reads: StoryMapReads,
  projectId: string,
  args: ListArgs,
  principal: Principal,
) => {
  const { map } = await reads.map(projectId, principal);
  const rows = await reads.rows(projectId);
  const matching = rows
    .filter(
      (r) =>
        (!args.status || r.status === args.status) &&
        (!args.activity || r.activity.toLowerCase() === args.activity.toLowerCase()) &&
        (args.release === undefined || r.release === args.release),
    )
    .sort(byNumber);
  const limit = args.limit ?? 200;
  const fields = new Set(args.fields ?? []);
  const needViews = fields.has('criteria') || fields.has('notes') || fields.has('user_story');
  const shown = await Promise.all(
    matching.slice(0, limit).map(async (r) => {
      const extra: Record<string, unknown> = {};
      if (fields.has('depends_on')) extra.depends_on = r.depends_on;
      if (fields.has('build_sequence')) extra.build_sequence = r.build_sequence;
      if (needViews) {
        const v = (await reads.story(projectId, r.id))!;
        if (fields.has('criteria')) extra.criteria = v.acceptance_criteria;
        if (fields.has('notes')) extra.notes = v.notes;
        if (fields.has('user_story')) extra.user_story = v.user_story;
      }
      return { ...summaryRow(r), ...extra };
    }),
  );
  return {
    map: {
      id: map.map_id,
      name: map.name,
      activities: map.activities.map((a) => a.name),
      releases: map.releases,
    },
    stories: shown,
    summary: {
      total: live(rows).length,
      cancelled: rows.length - live(rows).length,
      by_status: countsOf(rows),
    },
    ...(matching.length > limit
      ? { truncated: true, showing: limit, total_matching: matching.length }
      : {}),
  };
};

/** get_build_order's answer but its `generated_at`: the same for every read at one log head. */
export type BuildOrderListing = Readonly<{
  order: readonly BuildOrder['order'][number][];
  unsequenced: readonly (BuildOrder['unsequenced'][number] & { story_url: null })[];
  note: string;
}>;

/**
 * Listings by the build order they list. `reads.order` gives one BuildOrder per (project, log
 * head), so a listing, and whatever the surfaces derive from it (the text block, the card),
 * is made once per head: a new event moves the head and the next read makes a new one. Frozen,
 * since every reader at that head shares it.
 */
const listings = new WeakMap<BuildOrder, BuildOrderListing>();

const listingOf = (built: BuildOrder): BuildOrderListing => {
  const known = listings.get(built);
  if (known) return known;
  const { order, unsequenced } = built;
  const listing: BuildOrderListing = Object.freeze({
    order: Object.freeze(order.map((o) => Object.freeze(o))),
    unsequenced: Object.freeze(unsequenced.map((u) => Object.freeze({ ...u, story_url: null }))),
    note:
      unsequenced.length === 0
        ? 'Every live story is sequenced.'
        : `${unsequenced.length} stor${unsequenced.length === 1 ? 'y has' : 'ies have'} no build sequence yet: agents don't build them until the founder sequences them (intentlog founder sequence).`,
  });
  listings.set(built, listing);
  return listing;
};

export const getBuildOrder = async (
  app: App,
  reads: StoryMapReads,
  projectId: string,
  principal: Principal,
) => {
  await reads.map(projectId, principal);
  const listing = listingOf(await reads.order(projectId));
  return {
    order: listing.order,
    generated_at: app.clock().toISOString(),
    unsequenced: listing.unsequenced,
    note: listing.note,
  };
};

export const findOrphanedReleases = async (
  reads: StoryMapReads,
  projectId: string,
  principal: Principal,
) => {
  const { map } = await reads.map(projectId, principal);
  const labelled = new Set(map.releases.map((r) => r.release_order));
  const used = new Map<number, OrderRow[]>();
  for (const r of live(await reads.rows(projectId)))
    if (!labelled.has(r.release)) used.set(r.release, [...(used.get(r.release) ?? []), r]);
  const orphans = [...used].map(([release, rows]) => ({
    release,
    story_count: rows.length,
    stories: rows.map((r) => ({ id: r.id, key: r.key, title: r.title })),
  }));
  return {
    orphaned_releases: orphans.length,
    orphans,
    ...(orphans.length > 0
      ? {
          fix: 'Call update_stories on one of its stories with release set to that number: placing a story in an orphan creates its label.',
        }
      : {}),
  };
};

/** get_story's answer: the view, its suggested branch and its building record at `now`. */
export const storyDetail = ({ build: _build, ...v }: StoryView, now: string) => ({
  ...v,
  suggested_branch: `${v.key.toLowerCase()}-${v.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)}`,
  ...buildDetail({ ...v, build: _build }, now),
  design_refs: [],
});
