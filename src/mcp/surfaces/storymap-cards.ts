import { z } from 'zod';
import { shippedText } from '../shipped.js';
import type { AnyTool, ResourceDefinition } from '../tool.js';

/**
 * The cards MCP Apps hosts (Claude.ai, Claude Desktop) render beside the story map's results:
 * one self-contained HTML resource (`web/card.html`: no CDN, no network) that draws a story,
 * progress or build-order card from the tool result's `structuredContent.result.card`. A
 * card-bearing tool names it in its `_meta.ui.resourceUri` (and the older flat
 * `ui/resourceUri` key, which hosts still read); its result carries everything the card shows,
 * so a host without MCP Apps loses nothing.
 */
export const CARD_URI = 'ui://intentlog/card.html';
/** The MIME type MCP Apps gives an HTML view (SEP-1865). */
export const CARD_MIME = 'text/html;profile=mcp-app';

export type CardKind = 'story' | 'progress' | 'build_order';

/** The `_meta` of a tool that renders a card. */
export const cardMeta = (kind: CardKind): Record<string, unknown> => ({
  ui: { resourceUri: CARD_URI },
  'ui/resourceUri': CARD_URI,
  'intentlog/card': kind,
});

const Criterion = z.object({
  id: z.string(),
  text: z.string(),
  priority: z.string(),
  /** pass, fail, blocked, or null before any report */
  result: z.string().nullable(),
});

export const StoryCard = z.object({
  kind: z.literal('story'),
  id: z.string(),
  key: z.string(),
  title: z.string(),
  status: z.string(),
  priority: z.string(),
  effort: z.string(),
  release: z.number().nullable(),
  activity: z.string().nullable(),
  cancelled: z.boolean(),
  criteria: z.object({ total: z.number(), passing: z.number(), must: z.number() }),
  criteria_list: z.array(Criterion),
  claimed_by: z.string().nullable(),
});

export const ProgressCard = z.object({
  kind: z.literal('progress'),
  title: z.string(),
  percent: z.number(),
  complete: z.number(),
  total: z.number(),
  counts: z.record(z.string(), z.number()),
  /** readiness: true/false for check_release_readiness, null for get_status */
  ready: z.boolean().nullable(),
  blocking: z.array(z.object({ story: z.string(), gap: z.string() })),
});

const Placed = z.object({
  id: z.string(),
  key: z.string(),
  title: z.string(),
  status: z.string(),
  build_sequence: z.number().nullable(),
  depends_on: z.array(z.string()),
});

export const BuildOrderCard = z.object({
  kind: z.literal('build_order'),
  project_id: z.string().nullable(),
  order: z.array(Placed),
  unsequenced: z.array(Placed.omit({ build_sequence: true })),
});

export const Card = z.discriminatedUnion('kind', [StoryCard, ProgressCard, BuildOrderCard]);
export type Card = z.infer<typeof Card>;

/** A card-bearing tool's result: its own fields, plus the card drawn from them. */
export const withCard = <T extends object>(structured: T, card: Card): T & { card: Card } => ({
  ...structured,
  card,
});

/** A criterion's last result as a word, whatever shape the building loop reports it in. */
const resultWord = (r: unknown): string | null => {
  if (typeof r === 'string') return r;
  if (r !== null && typeof r === 'object' && typeof (r as { status?: unknown }).status === 'string')
    return (r as { status: string }).status;
  return null;
};

const holderOf = (claim: unknown): string | null => {
  if (claim === null || typeof claim !== 'object') return null;
  const c = claim as Record<string, unknown>;
  const who = c.held_by ?? c.actor_id ?? c.by ?? c.session;
  return typeof who === 'string' ? who : null;
};

const StorySource = z.looseObject({
  id: z.string(),
  key: z.string(),
  title: z.string(),
  status: z.string(),
  priority: z.string(),
  effort: z.string(),
  release: z.number().nullish(),
  activity: z.string().nullish(),
  cancelled_at: z.string().nullish(),
  claim: z.unknown().optional(),
  acceptance_criteria: z
    .array(
      z.looseObject({
        id: z.string(),
        text: z.string(),
        priority: z.string(),
        last_result: z.unknown().optional(),
      }),
    )
    .default([]),
});

/** A story card from a story as get_story answers it (start_story and complete_story too). */
export const storyCardOf = (story: unknown): Card => {
  const s = StorySource.parse(story);
  const list = s.acceptance_criteria.map((c) => ({
    id: c.id,
    text: c.text,
    priority: c.priority,
    result: resultWord(c.last_result),
  }));
  return {
    kind: 'story',
    id: s.id,
    key: s.key,
    title: s.title,
    status: s.status,
    priority: s.priority,
    effort: s.effort,
    release: s.release ?? null,
    activity: s.activity ?? null,
    cancelled: Boolean(s.cancelled_at),
    criteria: {
      total: list.length,
      passing: list.filter((c) => c.result === 'pass').length,
      must: list.filter((c) => c.priority === 'must').length,
    },
    criteria_list: list,
    claimed_by: holderOf(s.claim),
  };
};

const Counts = z.record(z.string(), z.number());
const StatusSource = z.looseObject({
  text: z.string(),
  counts: Counts,
  total: z.number(),
  complete: z.number(),
  percent: z.number(),
});

/** A progress card from get_status. */
export const progressCardOf = (status: unknown): Card => {
  const s = StatusSource.parse(status);
  return {
    kind: 'progress',
    title: s.text.split('\n')[0] ?? '',
    percent: s.percent,
    complete: s.complete,
    total: s.total,
    counts: s.counts,
    ready: null,
    blocking: [],
  };
};

const ReadinessSource = z.looseObject({
  release: z.string().nullable(),
  release_order: z.number().optional(),
  ready: z.boolean(),
  report: z.string(),
  counts: z.looseObject({ total: z.number(), done: z.number() }).partial().optional(),
  blocking: z.array(z.object({ story: z.string(), gap: z.string() })).default([]),
});

/** A progress card from check_release_readiness: the release's stories and what blocks it. */
export const readinessCardOf = (readiness: unknown): Card => {
  const r = ReadinessSource.parse(readiness);
  const total = r.counts?.total ?? 0;
  const complete = r.counts?.done ?? 0;
  const counts = Object.fromEntries(
    Object.entries(r.counts ?? {}).filter((e): e is [string, number] => typeof e[1] === 'number'),
  );
  return {
    kind: 'progress',
    title: r.release === null ? 'No releases yet' : `Release ${r.release_order}: ${r.release}`,
    percent: total === 0 ? 0 : Math.round((complete / total) * 100),
    complete,
    total,
    counts,
    ready: r.ready,
    blocking: r.blocking,
  };
};

const OrderSource = z.looseObject({
  order: z.array(
    z.looseObject({
      id: z.string(),
      key: z.string(),
      title: z.string(),
      status: z.string(),
      build_sequence: z.number().nullable(),
      depends_on: z.array(z.string()),
    }),
  ),
  unsequenced: z.array(
    z.looseObject({
      id: z.string(),
      key: z.string(),
      title: z.string(),
      status: z.string(),
      depends_on: z.array(z.string()),
    }),
  ),
});

/** A build-order card from get_build_order; dependencies named by key, as cards name stories. */
export const buildOrderCardOf = (built: unknown, projectId: string | null): Card => {
  const b = OrderSource.parse(built);
  const keyOf = new Map([...b.order, ...b.unsequenced].map((s) => [s.id, s.key]));
  const keys = (ids: string[]) => ids.map((id) => keyOf.get(id) ?? id);
  const pick = (s: z.infer<typeof OrderSource>['unsequenced'][number]) => ({
    id: s.id,
    key: s.key,
    title: s.title,
    status: s.status,
    depends_on: keys(s.depends_on),
  });
  return {
    kind: 'build_order',
    project_id: projectId,
    order: b.order.map((s) => ({ ...pick(s), build_sequence: s.build_sequence })),
    unsequenced: b.unsequenced.map(pick),
  };
};

type CardOf = (result: unknown, projectId: string | null) => Card;

/** The hosted tools that render a card, and how each draws it from its own result. */
const CARDS: Record<string, { kind: CardKind; of: CardOf }> = {
  get_story: { kind: 'story', of: storyCardOf },
  get_status: { kind: 'progress', of: progressCardOf },
  check_release_readiness: { kind: 'progress', of: readinessCardOf },
  get_build_order: { kind: 'build_order', of: buildOrderCardOf },
};

/** A tool that renders `kind`: its `_meta` names the card, its result gains `card`. */
export const cardTool = (tool: AnyTool, kind: CardKind, of: CardOf): AnyTool => ({
  ...tool,
  meta: { ...tool.meta, ...cardMeta(kind) },
  async run(args, ctx) {
    const answer = await tool.run(args, ctx);
    const result = answer.result as object;
    return { ...answer, result: withCard(result, of(result, answer.project_id ?? null)) };
  },
});

/** The surface's tools, the card-bearing ones decorated (the rest as they are). */
export const withCards = (tools: readonly AnyTool[]): AnyTool[] =>
  tools.map((t) => {
    const card = CARDS[t.name];
    return card ? cardTool(t, card.kind, card.of) : t;
  });

/** The one card resource; the HTML picks the card from the result it is given. */
export const cardResource: ResourceDefinition = {
  name: 'card',
  uri: CARD_URI,
  title: 'Story map card',
  description:
    'The story, progress and build-order cards MCP Apps hosts render beside get_story, get_status, check_release_readiness and get_build_order (self-contained HTML).',
  mimeType: CARD_MIME,
  read: async () => shippedText('web/card.html'),
};
