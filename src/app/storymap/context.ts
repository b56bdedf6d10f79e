import type { Principal } from '../../commands/principal.js';
import { isFinished } from '../../commands/storymap/build-order.js';
import type { MapView, StoryView } from '../../projections/storymap/views.js';
import { buildTodoItems, openWork, planOf } from './build-reads.js';
import { ciRegressions, evidenceLines, testsPredateCode } from './evidence-reads.js';
import { countsOf } from './queries.js';
import { visionQuestions, visionState, type StoryMapReads } from './read.js';

const visionSummary = (map: MapView) =>
  visionQuestions(map)
    .filter((q) => q.text)
    .map((q) => `${q.heading} ${q.text}`)
    .join(' ');

export const getSessionContext = async (
  reads: StoryMapReads,
  projectId: string,
  principal: Principal,
  /** the calling MCP session: its own claimed story is its current one */
  sessionId?: string,
) => {
  const { map, caller } = await reads.map(projectId, principal);
  const rows = await reads.rows(projectId);
  const liveRows = rows.filter((r) => r.cancelled_at === null);
  const v = visionState(map);
  const building = liveRows.filter((r) => r.status === 'in_progress');
  const views = await Promise.all(building.map((r) => reads.story(projectId, r.id)));
  const mine = views.find((v) => sessionId && v?.build.claim?.session_id === sessionId);
  const current = mine ?? building[0];
  const next = (await reads.order(projectId)).order.find(
    (o) => !isFinished(o) && o.status !== 'in_progress',
  );
  const currentView = current && (await reads.story(projectId, current.id));
  return {
    workspace: { kind: 'local', note: 'a local intentlog ledger: no hosted workspace' },
    project: {
      id: map.project_id,
      name: map.name,
      idea: map.idea,
      archived: map.archived,
      your_role: caller.role,
    },
    constitution: {
      status: v.status,
      progress: v.progress,
      ...(v.status === 'complete' ? { summary: visionSummary(map) } : { unanswered: v.unanswered }),
    },
    stories: {
      counts: countsOf(rows),
      total: liveRows.length,
      cancelled: rows.length - liveRows.length,
      map_id: map.map_id,
      ...(currentView
        ? {
            current: {
              id: currentView.id,
              key: currentView.key,
              title: currentView.title,
              acceptance_criteria: currentView.acceptance_criteria,
              plan: planOf(currentView.build).plan,
              claimed_by_this_session:
                !!sessionId && currentView.build.claim?.session_id === sessionId,
            },
          }
        : next
          ? {
              next: {
                id: next.id,
                key: next.key,
                title: next.title,
                priority: next.priority,
                reason: next.reason,
              },
            }
          : {}),
      spec_changed_since_built: liveRows
        .filter((r) => r.spec_changed_since_built)
        .map((r) => r.key),
    },
    sync: { state: 'local', last_activity: map.last_activity_at },
    blockers: await openWork(reads, projectId),
  };
};

type TodoItem = { kind: string; story_key: string | null; action: string };

/**
 * get_status. It ends with what waits on the founder: `todo`, get_founder_todo's items for the
 * project where the caller has them (runs included), else the project's own list.
 */
export const getStatus = async <T extends TodoItem>(
  reads: StoryMapReads,
  projectId: string,
  principal: Principal,
  todoItems?: readonly T[],
) => {
  const { map } = await reads.map(projectId, principal);
  const rows = await reads.rows(projectId);
  const counts = countsOf(rows);
  const total = rows.filter((r) => r.cancelled_at === null).length;
  const complete = counts.approved + counts.done;
  const pct = total === 0 ? 0 : Math.round((complete / total) * 100);
  const cancelled = rows.filter((s) => s.cancelled_at);
  const changed = rows.filter((s) => s.spec_changed_since_built && !s.cancelled_at);
  const ci_regressed = await ciRegressions(reads, map);
  const tests_predate_code = await testsPredateCode(reads, map);
  const no_reported_evidence = rows
    .filter((r) => !r.cancelled_at && isFinished(r) && r.passing_ids.length === 0)
    .map((r) => ({ id: r.id, key: r.key, title: r.title }));
  const todo = { items: todoItems ?? (await founderTodo(reads, projectId, principal)).items };
  const v = visionState(map);
  const lines = [
    `${map.name}: ${complete}/${total} complete (${pct}%)`,
    `approved ${counts.approved} · dev complete ${counts.done} · in progress ${counts.in_progress} · ready ${counts.ready_for_dev} · needs rework ${counts.needs_rework} · todo ${counts.todo}`,
    `Vision: ${v.status} (${v.progress})`,
    ...(cancelled.length > 0
      ? [
          'Cancelled (stop all work on these):',
          ...cancelled.map(
            (s) =>
              `- ${s.key} ${s.title}${s.cancellation_reason ? `: ${s.cancellation_reason}` : ''}`,
          ),
        ]
      : []),
    ...(changed.length > 0
      ? ['Spec changed since built:', ...changed.map((s) => `- ${s.key} ${s.title}`)]
      : []),
    ...evidenceLines(ci_regressed, tests_predate_code),
    `Sync: local ledger; last activity ${map.last_activity_at}.`,
    ...(no_reported_evidence.length > 0
      ? [
          `Finished with no passing result reported: ${no_reported_evidence.map((s) => s.key).join(', ')}.`,
        ]
      : []),
    ...(todo.items.length > 0
      ? [
          'Waiting on the founder:',
          ...todo.items.map((i) => `- ${i.story_key ?? i.kind}: ${i.action}`),
        ]
      : ['Waiting on the founder: nothing.']),
  ];
  return {
    text: lines.join('\n'),
    counts,
    total,
    complete,
    percent: pct,
    cancelled: cancelled.map((s) => ({
      id: s.id,
      key: s.key,
      title: s.title,
      reason: s.cancellation_reason,
    })),
    spec_changed_since_built: changed.map((s) => s.key),
    ci_regressed,
    tests_predate_code,
    sync: { state: 'local', last_activity: map.last_activity_at, no_reported_evidence },
    founder_todo: todo.items,
  };
};

const criterionLine = (c: StoryView['acceptance_criteria'][number]) =>
  `  - [${c.priority}] ${c.text}`;

/** The project as one INTENT.md document: brief, vision, activities, releases, stories. */
export const renderIntentMd = (map: MapView, stories: readonly StoryView[]) => {
  const liveStories = stories
    .filter((s) => !s.cancelled_at)
    .sort((a, b) => Number(a.key.split('-').pop()) - Number(b.key.split('-').pop()));
  const out = [`# ${map.name}`, '', map.idea, '', '## Vision', ''];
  for (const q of visionQuestions(map))
    out.push(`**${q.heading}** ${q.text ?? '_unanswered_'}`, '');
  out.push('## Releases', '', ...map.releases.map((r) => `- ${r.release_order}: ${r.label}`), '');
  for (const activity of map.activities) {
    out.push(`## ${activity.name}`, '');
    for (const s of liveStories.filter((x) => x.activity === activity.name)) {
      out.push(
        `### ${s.key} ${s.title}`,
        '',
        `status ${s.status} · priority ${s.priority} · effort ${s.effort} · release ${s.release}`,
      );
      const u = s.user_story;
      if (u.as_a || u.i_want || u.so_that)
        out.push(
          '',
          `As ${u.as_a ?? '…'}, I want ${u.i_want ?? '…'}, so that ${u.so_that ?? '…'}.`,
        );
      if (s.acceptance_criteria.length > 0)
        out.push('', 'Acceptance criteria:', ...s.acceptance_criteria.map(criterionLine));
      out.push('');
    }
  }
  const decisions = map.decisions.filter((d) => !d.retracted);
  if (decisions.length > 0)
    out.push(
      '## Decisions',
      '',
      ...decisions.map((d) => `- **${d.title}** (${d.category}): ${d.description}`),
      '',
    );
  return out.join('\n');
};

export const getContext = async (reads: StoryMapReads, projectId: string, principal: Principal) => {
  const { map } = await reads.map(projectId, principal);
  return renderIntentMd(map, await reads.stories(projectId));
};

/** What waits on the founder: built stories to approve, todo stories to mark ready, unsequenced ones. */
export const founderTodo = async (
  reads: StoryMapReads,
  projectId: string,
  principal: Principal,
) => {
  const { map } = await reads.map(projectId, principal);
  const rows = await reads.rows(projectId);
  const { unsequenced } = await reads.order(projectId);
  const unblocks = (id: string) =>
    rows.filter((r) => r.depends_on.includes(id) && !isFinished(r)).length;
  const items = [
    ...(await buildTodoItems(reads, projectId, unblocks)),
    ...(visionState(map).status !== 'complete'
      ? [
          {
            kind: 'vision',
            story_key: null,
            action: 'answer the vision (set_vision)',
            detail: `unanswered: ${visionState(map).unanswered.join(', ')}`,
            unblocks: 0,
          },
        ]
      : []),
    ...rows
      .filter((r) => r.status === 'done' && !r.cancelled_at)
      .map((r) => ({
        kind: 'acceptance',
        story_key: r.key,
        action: `approve: intentlog founder approve ${projectId} ${r.key}`,
        detail: map.flagged.ci_regressed.includes(r.id)
          ? `${r.title} (CI now fails its criteria: look before approving)`
          : r.title,
        unblocks: unblocks(r.id),
      })),
    ...rows
      .filter((r) => r.status === 'todo' && !r.cancelled_at)
      .map((r) => ({
        kind: 'ready',
        story_key: r.key,
        action: `mark ready: intentlog founder ready ${projectId} ${r.key}`,
        detail: r.title,
        unblocks: unblocks(r.id),
      })),
    ...unsequenced.map((u) => ({
      kind: 'sequence',
      story_key: u.key,
      action: `sequence: intentlog founder sequence ${projectId} ${u.key} <n>`,
      detail: u.title,
      unblocks: unblocks(u.id),
    })),
  ];
  return { project_id: map.project_id, items: items.sort((a, b) => b.unblocks - a.unblocks) };
};
