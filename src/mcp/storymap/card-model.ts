import { z } from 'zod';

/**
 * What a card shows (zod schemas, so a card is checked where it is drawn and in tests) and how
 * each is drawn from the result of the tool that renders it. Pure: no I/O.
 */
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

/**
 * The build-order card draws the result's own `order` and `unsequenced` (dependencies named by
 * key, from the ids there): on a map of 2,000 stories a copy of them in the card was a quarter
 * of get_build_order's bytes.
 */
export const BuildOrderCard = z.object({
  kind: z.literal('build_order'),
  project_id: z.string().nullable(),
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
  ci_regressed: z.array(z.looseObject({ key: z.string() })).default([]),
  tests_predate_code: z.array(z.looseObject({ key: z.string() })).default([]),
});

/** A progress card from get_status; its evidence flags are what it lists as blocking. */
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
    blocking: [
      ...s.ci_regressed.map((x) => ({ story: x.key, gap: 'criteria now fail in CI' })),
      ...s.tests_predate_code.map((x) => ({ story: x.key, gap: 'tests predate the code' })),
    ],
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

/**
 * Order arrays already checked: get_build_order's `order` is one frozen array per (project, log
 * head) (storymap/queries.ts), so at one head its shape is checked once.
 */
const checked = new WeakSet<object>();

/**
 * A build-order card from get_build_order: the card's script draws the result's own lists, so
 * this only checks they have the shape it draws from.
 */
export const buildOrderCardOf = (built: unknown, projectId: string | null): Card => {
  const order = (built as { order?: unknown } | null)?.order;
  if (!(Array.isArray(order) && checked.has(order))) {
    OrderSource.parse(built);
    if (Array.isArray(order) && Object.isFrozen(order)) checked.add(order);
  }
  return { kind: 'build_order', project_id: projectId };
};
