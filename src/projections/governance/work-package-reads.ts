import type { WorkPackageStatus } from '../../events/governance/index.js';
import type { ModelStore } from '../../events/index.js';
import {
  noStatusCounts,
  workPackagesModel as model,
  type PackageItems,
  type PackageList,
  type StatusCounts,
  type WorkPackageHead,
  type WorkPackageView,
} from './work-packages.js';

/**
 * The one way to read the work-packages model (the MCP tools and the web view alike): a package
 * is stored as a head and its lists item by item (work-packages.ts); these put it back together,
 * whole or a page at a time. Every read costs what it returns, never the project's size.
 */

/** A page of a list: `total` items in all, `items` from `offset` on. */
export type Page<T> = { total: number; offset: number; items: T[] };
export type PageRequest = { offset?: number; limit?: number };

/** A page of one of a package's lists (reviews, commits, artifacts, baselines), in order. */
export const workPackageItems = async <L extends PackageList>(
  models: ModelStore,
  head: WorkPackageHead,
  list: L,
  page: PageRequest = {},
): Promise<Page<PackageItems[L]>> => {
  const { project_id: p, work_package_id: wp } = head;
  const total = head.counts[list];
  const offset = Math.min(Math.max(0, page.offset ?? 0), total);
  const length = Math.min(Math.max(0, page.limit ?? total), total - offset);
  if (length === 0) return { total, offset, items: [] };
  // the keys follow from the count: one multi-get, cheaper than a range over the same keys
  const keys = Array.from({ length }, (_, i) => model.items[list].key(p, wp, String(offset + i)));
  const items = await models.getMany<PackageItems[L]>(keys);
  return { total, offset, items: items.filter((item) => item !== undefined) };
};

/** A package's head: everything but its lists, with how many items each holds. */
export const workPackageHead = (models: ModelStore, projectId: string, id: string) =>
  model.head.get(models, projectId, id);

/** The whole package, as `get_work_package` answers it; undefined when there is none. */
export const readWorkPackage = async (
  models: ModelStore,
  projectId: string,
  id: string,
): Promise<WorkPackageView | undefined> => {
  const head = await workPackageHead(models, projectId, id);
  if (!head) return undefined;
  const all = <L extends PackageList>(list: L) =>
    workPackageItems(models, head, list).then((page) => page.items);
  const [reviews, commits, artifacts, baselines] = await Promise.all([
    all('reviews'),
    all('commits'),
    all('artifacts'),
    all('baselines'),
  ]);
  return {
    project_id: head.project_id,
    work_package_id: head.work_package_id,
    title: head.title,
    description: head.description,
    acceptance_criteria: head.acceptance_criteria,
    issued_by: head.issued_by,
    status: head.status,
    issued_at: head.issued_at,
    claimed_by: head.claimed_by,
    claimed_at: head.claimed_at,
    result: head.result,
    reviews,
    links: { commits, artifacts },
    gate: head.gate,
    baselines,
    updated_at: head.updated_at,
  };
};

/** How many of a project's packages are in each state. */
export const workPackageCounts = async (
  models: ModelStore,
  projectId: string,
): Promise<StatusCounts> => (await model.counts.get(models, projectId)) ?? noStatusCounts();

/**
 * A project's packages in one state, most recently changed first (ties: the later id first), a
 * page at a time: heads only (a package's lists through `workPackageItems`). Reads the index up
 * to the page's end, so a first page costs the same in a project of 10 packages and of 10,000.
 */
export const listWorkPackages = async (
  models: ModelStore,
  projectId: string,
  { status, offset = 0, limit }: { status: WorkPackageStatus } & PageRequest,
): Promise<Page<WorkPackageHead>> => {
  const total = (await workPackageCounts(models, projectId))[status];
  const start = Math.min(Math.max(0, offset), total);
  const end = limit === undefined ? undefined : start + Math.max(0, limit);
  if (end === start) return { total, offset: start, items: [] };
  const index = await models.range<string>({
    prefix: model.inState.prefix(projectId, status),
    reverse: true,
    ...(end === undefined ? {} : { limit: end }),
  });
  const ids = index.slice(start).map(([, id]) => id);
  const heads = await models.getMany<WorkPackageHead>(
    ids.map((id) => model.head.key(projectId, id)),
  );
  return { total, offset: start, items: heads.filter((h) => h !== undefined) };
};

/** The package a review belongs to; undefined when no such review exists. */
export const workPackageOfReview = async (
  models: ModelStore,
  projectId: string,
  reviewId: string,
): Promise<string | undefined> =>
  (await model.review.get(models, projectId, reviewId))?.work_package_id;
