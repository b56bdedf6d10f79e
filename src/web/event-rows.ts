import type { App } from '../app/app.js';
import { owned } from '../app/owned-streams.js';
import type { Principal } from '../commands/principal.js';
import type { RoleSurface } from '../events/project/index.js';
import type { LogEvent } from '../events/index.js';

/** One event as the timeline shows it (and as the live stream sends it). */
export type EventRow = {
  position: number;
  created_at: string;
  project_id: string;
  context: string;
  aggregate_type: string;
  aggregate_id: string;
  stream: string;
  type: string;
  actor_id: string;
  actor_role: string;
  cursor: number;
  prev_hash: string;
  hash: string;
};

export type EventFilter = { project?: string; surface?: string; stream?: string; type?: string };

export const filterOf = (query: URLSearchParams): EventFilter => {
  const filter: EventFilter = {};
  for (const key of ['project', 'surface', 'stream', 'type'] as const) {
    const value = query.get(key)?.trim();
    if (value) filter[key] = value;
  }
  return filter;
};

export const toRow = (e: LogEvent, contextOf: (type: string) => string): EventRow => ({
  position: e.global_position,
  created_at: e.created_at,
  project_id: e.project_id,
  context: contextOf(e.type),
  aggregate_type: e.aggregate_type,
  aggregate_id: e.aggregate_id,
  stream: e.stream_name,
  type: e.type,
  actor_id: e.actor_id,
  actor_role: e.actor_role,
  cursor: e.cursor,
  prev_hash: e.prev_hash,
  hash: e.hash,
});

/**
 * Which projects a principal may watch: every one for SYSTEM (the local user), otherwise the
 * projects it is a member of, or, for a surface's pages, those where it holds a role on that
 * surface (docs/authorization.md, "Web view"). Undefined means all. Read live: a membership is
 * never taken back, so whoever may see a project now may see its past too.
 */
export const visibleProjects = async (
  app: App,
  principal: Principal,
  surface?: RoleSurface,
): Promise<ReadonlySet<string> | undefined> => {
  if (principal.kind === 'system') return undefined;
  const memberships = await app.projects.membershipsOf(principal.actor_id);
  return new Set(memberships.filter((m) => !surface || m.roles[surface]).map((m) => m.project_id));
};

/**
 * Whether the principal may see a row of a project it may see: not another's intent task
 * (owned-streams.ts).
 */
export const readsRow =
  (app: App, principal: Principal) =>
  (row: EventRow): Promise<boolean> =>
    owned(app).mayRead(principal, { aggregate_type: row.aggregate_type, stream_name: row.stream });

/** Whether a row passes the filter and the principal's view. */
export const matches = (
  row: EventRow,
  filter: EventFilter,
  visible: ReadonlySet<string> | undefined,
): boolean =>
  (!visible || visible.has(row.project_id)) &&
  (!filter.project || row.project_id === filter.project) &&
  (!filter.surface || row.context === filter.surface || row.aggregate_type === filter.surface) &&
  (!filter.stream || row.stream.includes(filter.stream)) &&
  (!filter.type || row.type === filter.type);

const CHUNK = 500;

/**
 * The newest `limit` matching events at or before `upTo`, newest first: read backwards in
 * chunks (global positions are dense), so a first load costs what it shows, not the log's size.
 */
export const latestRows = async (
  app: App,
  options: {
    upTo: number;
    limit: number;
    filter: EventFilter;
    visible: ReadonlySet<string> | undefined;
    reads: (row: EventRow) => Promise<boolean>;
    contextOf: (type: string) => string;
  },
): Promise<EventRow[]> => {
  const rows: EventRow[] = [];
  for (let end = options.upTo; end > 0 && rows.length < options.limit; end -= CHUNK) {
    const after = Math.max(0, end - CHUNK);
    const events = await app.log.readAll({ after, limit: end - after });
    for (let i = events.length - 1; i >= 0 && rows.length < options.limit; i--) {
      const row = toRow(events[i]!, options.contextOf);
      if (matches(row, options.filter, options.visible) && (await options.reads(row)))
        rows.push(row);
    }
  }
  return rows;
};
