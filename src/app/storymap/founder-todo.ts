import { isDomainError } from '../../commands/errors.js';
import type { Principal } from '../../commands/principal.js';
import { isFinished } from '../../commands/storymap/build-order.js';
import type { RunView } from '../../projections/storymap/runs.js';
import type { App } from '../app.js';
import { founderTodo } from './context.js';
import { listProjects } from './queries.js';
import { runs } from './runs.js';
import { storymap } from './index.js';

type Item = {
  project_id: string;
  project: string;
  url: string;
  kind: string;
  story_key: string | null;
  action: string;
  detail: string;
  unblocks: number;
  run: string | null;
};

/** The web view's project page: the nearest page to where an item is cleared on this machine. */
const urlOf = (projectId: string) => `/projects/${encodeURIComponent(projectId)}`;

/** Runs waiting on the founder: drafts to approve, paused runs to resume or stop. */
const runItems = (
  projectId: string,
  name: string,
  list: readonly RunView[],
  open: (r: RunView) => number,
): Item[] =>
  list
    .filter((r) => r.status === 'draft' || r.status === 'paused')
    .map((r) => ({
      project_id: projectId,
      project: name,
      url: urlOf(projectId),
      kind: r.status === 'draft' ? 'run_approval' : 'run_paused',
      story_key: null,
      action:
        r.status === 'draft'
          ? `approve the run: intentlog founder run approve ${projectId} ${r.key}`
          : `resume or stop the run: intentlog founder run resume ${projectId} ${r.key}`,
      detail: `${r.key} ${r.title} (${r.story_ids.length} stories, concurrency ${r.concurrency})`,
      unblocks: open(r),
      run: r.key,
    }));

const projectItems = async (app: App, projectId: string, name: string, principal: Principal) => {
  const todo = await founderTodo(storymap(app).reads, projectId, principal);
  const service = runs(app);
  const [list, facts] = await Promise.all([service.runsOf(projectId), service.facts(projectId)]);
  const active = list.filter((r) => r.status === 'approved');
  const runOf = (key: string | null) => {
    const id = [...facts.values()].find((f) => f.key === key)?.id;
    return id === undefined ? null : (active.find((r) => r.story_ids.includes(id))?.key ?? null);
  };
  const open = (r: RunView) =>
    r.story_ids.filter((id) => {
      const f = facts.get(id);
      return f && !f.cancelled && !isFinished(f);
    }).length;
  const items: Item[] = todo.items.map((i) => ({
    project_id: projectId,
    project: name,
    url: urlOf(projectId),
    ...i,
    run: runOf(i.story_key),
  }));
  return [...items, ...runItems(projectId, name, list, open)];
};

/**
 * get_founder_todo: what waits on the founder in one project, or in every project the caller
 * can reach; most unblocking first, then items in an approved run, then by project and key.
 */
export const founderTodoAcross = async (
  app: App,
  principal: Principal,
  projectId: string | undefined,
) => {
  const reads = storymap(app).reads;
  const projects =
    projectId !== undefined
      ? [{ id: projectId, name: (await reads.map(projectId, principal)).map.name }]
      : (await listProjects(app, reads, principal)).filter((p) => !p.archived);
  const lists = await Promise.all(
    projects.map((p) =>
      projectItems(app, p.id, p.name, principal).catch((error: unknown) => {
        // a project whose access changed between the list and the read is left out
        if (projectId === undefined && isDomainError(error) && error.code === 'not_found')
          return [];
        throw error;
      }),
    ),
  );
  const items = lists
    .flat()
    .sort(
      (a, b) =>
        b.unblocks - a.unblocks ||
        Number(b.run !== null) - Number(a.run !== null) ||
        a.project.localeCompare(b.project) ||
        (a.story_key ?? '').localeCompare(b.story_key ?? '', undefined, { numeric: true }),
    );
  return {
    ...(projectId !== undefined ? { project_id: projectId } : {}),
    projects: projects.length,
    items,
  };
};
