import { dependencyOrder, isFinished } from '../../commands/storymap/build-order.js';

/**
 * The build order, computed from the build-order rows (projections/storymap/build-order.ts) by
 * the story map's rule (commands/storymap/build-order.ts): the stories with a build sequence
 * and the finished ones, never a story before one it depends on; among the stories whose
 * dependencies are placed, finished stories first, then by build sequence, then by key.
 * Everything else live is `unsequenced`.
 */
export type OrderRow = {
  id: string;
  key: string;
  /** the number in the key: creation order, the last tie-breaker */
  number: number;
  title: string;
  status: 'todo' | 'ready_for_dev' | 'in_progress' | 'needs_rework' | 'done' | 'approved';
  activity: string;
  release: number;
  priority: 'must' | 'should' | 'could';
  effort: 'XS' | 'S' | 'M' | 'L' | 'XL';
  sort_order: number | null;
  build_sequence: number | null;
  depends_on: string[];
  criteria_count: number;
  /** ids of the must criteria (readiness needs at least one) */
  must_ids: string[];
  version: number;
  /** a built story whose title or criteria moved after it was built */
  spec_changed_since_built: boolean;
  /** criteria whose latest result passes (report_criteria) */
  passing_ids: string[];
  has_plan: boolean;
  /** open blockers and hand-offs to the founder (their ids): what get_session_context lists */
  open_work: string[];
  cancelled_at: string | null;
  cancellation_reason: string | null;
};

export type OrderedStory = {
  id: string;
  key: string;
  title: string;
  activity: string;
  effort: OrderRow['effort'];
  priority: OrderRow['priority'];
  status: OrderRow['status'];
  build_sequence: number | null;
  depends_on: string[];
  reason: string;
};

export type UnsequencedStory = Omit<OrderedStory, 'reason'> & {
  unsequenced: true;
  release: number;
  reason: string;
};

export type BuildOrder = { order: OrderedStory[]; unsequenced: UnsequencedStory[] };

type Rank = [number, number, number];
const rank = (row: OrderRow): Rank => [
  isFinished(row) ? 0 : 1,
  row.build_sequence ?? Number.MAX_SAFE_INTEGER,
  row.number,
];
/** Finished stories first, then by build sequence, then by key. */
const before = (x: OrderRow, y: OrderRow): boolean => {
  const [a, b] = [rank(x), rank(y)];
  return a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2];
};

const reasonFor = (row: OrderRow, keys: Map<string, OrderRow>): string => {
  if (isFinished(row)) return row.status === 'approved' ? 'approved' : 'built (done)';
  const parts = [`build sequence ${row.build_sequence}`];
  const deps = row.depends_on.map((d) => keys.get(d)).filter((d): d is OrderRow => !!d);
  const placed = deps.filter((d) => d.build_sequence !== null || isFinished(d));
  const waiting = deps.filter((d) => d.build_sequence === null && !isFinished(d));
  if (placed.length > 0) parts.push(`after ${placed.map((d) => d.key).join(', ')} (depends on)`);
  if (waiting.length > 0)
    parts.push(`waits on ${waiting.map((d) => d.key).join(', ')} (no build sequence yet)`);
  return parts.join('; ');
};

const view = (row: OrderRow) => ({
  id: row.id,
  key: row.key,
  title: row.title,
  activity: row.activity,
  effort: row.effort,
  priority: row.priority,
  status: row.status,
  build_sequence: row.build_sequence,
  depends_on: row.depends_on,
});

/** The rule over the placed stories; a dependency outside them does not hold one back. */
export const buildOrder = (rows: readonly OrderRow[]): BuildOrder => {
  const live = rows.filter((r) => r.cancelled_at === null);
  const byId = new Map(live.map((r) => [r.id, r]));
  const placed = live.filter((r) => r.build_sequence !== null || isFinished(r));
  const inOrder = new Set(placed.map((r) => r.id));
  const order: OrderedStory[] = dependencyOrder(placed, {
    id: (r) => r.id,
    dependsOn: (r) => r.depends_on,
    before,
  }).ordered.map((row) => ({ ...view(row), reason: reasonFor(row, byId) }));
  const ordered = new Set(order.map((o) => o.id));
  const unsequenced = live
    .filter((r) => !ordered.has(r.id))
    .sort((a, b) => a.number - b.number)
    .map((row) => ({
      ...view(row),
      unsequenced: true as const,
      release: row.release,
      // a placed story left over sits in a cycle: the map refuses those, but a read model must not hang
      reason: inOrder.has(row.id) ? 'in a dependency cycle' : 'no build sequence yet',
    }));
  return { order, unsequenced };
};
