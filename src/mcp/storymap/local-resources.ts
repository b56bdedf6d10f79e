import { storymap } from '../../app/storymap/index.js';
import { getStatus } from '../../app/storymap/context.js';
import { findLink } from '../../app/storymap/link.js';
import { getBuildOrder, listStories } from '../../app/storymap/queries.js';
import {
  DecisionCategory,
  Effort,
  StoryPriority,
  StoryStatus,
  VerificationMethod,
} from '../../events/storymap/index.js';
import type { MapView, StoryView } from '../../projections/storymap/views.js';
import type { ResourceDefinition, ToolContext } from '../tool.js';

/**
 * The local server's six resources (contracts/storymap.md, "Resources"), always served
 * whatever the mode, each over the project linked in `.intentlog/config.json`. URIs are the
 * contract's, named for this product (`intentlog://project/…`).
 */
const linked = async (ctx: ToolContext) => {
  const { project_id } = await findLink();
  const reads = storymap(ctx.app).reads;
  const { map } = await reads.map(project_id, ctx.principal);
  return { project_id, reads, map };
};

const json = (value: unknown) => JSON.stringify(value, null, 2);

const storyLine = (s: StoryView) =>
  `- **${s.key}** ${s.title} · ${s.status} · ${s.priority} · ${s.effort}` +
  (s.cancelled_at ? ' · CANCELLED: stop all work on it' : '');

/** The map as a person reads it: releases, then activities, then their stories. */
export const renderStoryMap = (map: MapView, stories: readonly StoryView[]): string => {
  const byNumber = [...stories].sort(
    (a, b) => Number(a.key.split('-').pop()) - Number(b.key.split('-').pop()),
  );
  const out = [`# ${map.name}: story map`, '', map.idea, ''];
  const releases = map.releases.length > 0 ? map.releases : [{ release_order: 1, label: '' }];
  for (const release of releases) {
    const inRelease = byNumber.filter((s) => s.release === release.release_order);
    out.push(`## Release ${release.release_order}${release.label ? `: ${release.label}` : ''}`, '');
    if (inRelease.length === 0) out.push('_No stories yet._', '');
    for (const activity of map.activities) {
      const here = inRelease.filter((s) => s.activity === activity.name);
      if (here.length > 0) out.push(`### ${activity.name}`, '', ...here.map(storyLine), '');
    }
  }
  return out.join('\n');
};

/** What the local tools and resources speak of, with this project's own names filled in. */
const dataModel = (map: MapView) => ({
  project: { id: map.project_id, name: map.name, key_prefix: map.key_prefix },
  entities: {
    story: {
      id: 'UUID',
      key: `${map.key_prefix}-<n>, unique in the project`,
      fields: ['title', 'activity', 'user_story', 'priority', 'effort', 'release'],
      status: StoryStatus.options,
      priority: StoryPriority.options,
      effort: Effort.options,
      relations: {
        depends_on: 'stories built before this one',
        acceptance_criteria: 'criterion[]',
      },
      cancelled: 'a cancelled story is a hard stop: every tool naming it is refused',
    },
    criterion: {
      id: 'UUID (report_criteria also takes a prefix of at least 4 characters)',
      fields: ['text', 'priority', 'given', 'when', 'then', 'verification'],
      priority: StoryPriority.options,
      verification_method: VerificationMethod.options,
      result: ['pass', 'fail', 'blocked'],
    },
    decision: {
      id: 'UUID',
      fields: ['title', 'description', 'category', 'story_id'],
      category: DecisionCategory.options,
      lifecycle: ['logged', 'amended', 'retracted'],
    },
    activity: { values: map.activities.map((a) => a.name) },
    release: { values: map.releases },
  },
});

const resource = (
  name: string,
  title: string,
  description: string,
  mimeType: string,
  read: (ctx: ToolContext) => Promise<string>,
): ResourceDefinition => ({
  name,
  uri: `intentlog://project/${name}`,
  title,
  description,
  mimeType,
  read,
});

export const localResources: ResourceDefinition[] = [
  resource(
    'storymap',
    'Story Map',
    'The linked project as a story map in Markdown: releases, activities and their stories.',
    'text/markdown',
    async (ctx) => {
      const { project_id, reads, map } = await linked(ctx);
      return renderStoryMap(map, await reads.stories(project_id));
    },
  ),
  resource(
    'stories',
    'Stories',
    'Every story of the linked project with its criteria, dependencies and build sequence.',
    'application/json',
    async (ctx) => {
      const { project_id, reads } = await linked(ctx);
      const fields = ['criteria', 'user_story', 'depends_on', 'build_sequence'];
      return json(await listStories(reads, project_id, { limit: 100_000, fields }, ctx.principal));
    },
  ),
  resource(
    'status',
    'Project Status',
    'Done, in progress and todo counts, the percentage complete, and cancelled stories.',
    'application/json',
    async (ctx) => {
      const { project_id, reads } = await linked(ctx);
      return json(await getStatus(reads, project_id, ctx.principal));
    },
  ),
  resource(
    'decisions',
    'Decisions',
    "The linked project's decisions, amended and retracted ones included (marked).",
    'application/json',
    async (ctx) => {
      const { project_id, map } = await linked(ctx);
      return json({ project_id, decisions: map.decisions });
    },
  ),
  resource(
    'data-model',
    'Data Model',
    'The story map data model the tools speak: stories, criteria, decisions, with their statuses and values, and this project’s activities and releases.',
    'application/json',
    async (ctx) => json(dataModel((await linked(ctx)).map)),
  ),
  resource(
    'build-order',
    'Build Order',
    'The order to build stories in (never a story before one it depends on), and the unsequenced ones.',
    'application/json',
    async (ctx) => {
      const { project_id, reads } = await linked(ctx);
      return json(await getBuildOrder(ctx.app, reads, project_id, ctx.principal));
    },
  ),
];
