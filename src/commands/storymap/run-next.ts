import type { StoryStatus } from '../../events/storymap/index.js';
import { dependencyOrder, isFinished } from './build-order.js';
import type { RunState } from './run-state.js';

/** What the hand-out needs to know of a story (the run's from their streams, others from the map). */
export type StoryFact = {
  id: string;
  key: string;
  title: string;
  status: StoryStatus;
  cancelled: boolean;
  depends_on: readonly string[];
};

export type RunStateName =
  'draft' | 'paused' | 'cancelled' | 'stopped' | 'complete' | 'full' | 'waiting';

export type NextInRun =
  | { kind: 'hand_out'; story: StoryFact; position: number; of: number }
  | {
      kind: 'stop';
      state: RunStateName;
      message: string;
      waiting_on?: { id: string; key: string; title: string; status: StoryStatus }[];
    };

const TO_BUILD: ReadonlySet<StoryStatus> = new Set(['todo', 'ready_for_dev', 'needs_rework']);

/**
 * The run's live stories in build order (the story map's rule, build-order.ts): never a story
 * before one of the run it depends on, otherwise in the order the founder gave (a cycle, which
 * the map refuses, would be broken in the given order rather than hang).
 */
export const runOrder = (run: RunState, facts: ReadonlyMap<string, StoryFact>): StoryFact[] => {
  const live = run.story_ids
    .map((id) => facts.get(id))
    .filter((s): s is StoryFact => !!s && !s.cancelled);
  const given = new Map(live.map((s, i) => [s.id, i]));
  return dependencyOrder(live, {
    id: (s) => s.id,
    dependsOn: (s) => s.depends_on,
    before: (a, b) => given.get(a.id)! < given.get(b.id)!,
    onCycle: 'force',
  }).ordered;
};

const stop = (state: RunStateName, message: string): NextInRun => ({
  kind: 'stop',
  state,
  message,
});

const byFounder = (run: RunState): NextInRun | undefined => {
  const why = run.reason ? ` (${run.reason})` : '';
  switch (run.status) {
    case 'draft':
      return stop(
        'draft',
        `${run.key} is a draft: a person approves it (\`intentlog founder run approve\`). Stop until next_in_run hands a story out.`,
      );
    case 'paused':
      return stop(
        'paused',
        `${run.key} is paused by the founder${why}. Stop; call next_in_run again once it is resumed.`,
      );
    case 'cancelled':
      return stop('cancelled', `${run.key} was cancelled${why}. Stop all work on this run.`);
    case 'stopped':
      return stop('stopped', `${run.key} was stopped by the founder${why}. Stop.`);
    case 'approved':
      return undefined;
  }
};

/**
 * What the remaining stories wait on, each once: the unfinished dependencies that are not
 * themselves waiting in the run (the ones being built, or outside the run) — the stories whose
 * completion frees the rest. A chain C → A lists A, not C.
 */
const blockers = (remaining: readonly StoryFact[], facts: ReadonlyMap<string, StoryFact>) => {
  const waiting = new Set(remaining.map((s) => s.id));
  const seen = new Map<string, StoryFact>();
  for (const s of remaining)
    for (const d of s.depends_on) {
      const dep = facts.get(d);
      if (dep && !dep.cancelled && !isFinished(dep)) seen.set(dep.id, dep);
    }
  const roots = [...seen.values()].filter((s) => !waiting.has(s.id));
  return roots.length > 0 ? roots : [...seen.values()];
};

/**
 * What next_in_run answers, from the run and the facts of its stories and their dependencies.
 * A cancelled dependency never finishes, so it does not hold a story back. A story needing rework
 * goes back into the queue, unless the run stops on failure.
 */
export const nextInRun = (run: RunState, facts: ReadonlyMap<string, StoryFact>): NextInRun => {
  const founder = byFounder(run);
  if (founder) return founder;
  const order = runOrder(run, facts);
  if (order.every(isFinished))
    return stop('complete', `${run.key} is complete: every story in it is built. Stop.`);
  const failed = order.filter((s) => s.status === 'needs_rework');
  if (run.on_failure === 'stop' && failed.length > 0)
    return stop(
      'stopped',
      `${run.key} stops on failure and ${failed.map((s) => s.key).join(', ')} needs rework. Stop; a person decides how to go on.`,
    );
  const building = order.filter((s) => s.status === 'in_progress');
  if (building.length >= run.concurrency)
    return stop(
      'full',
      `${run.key} already has ${building.length} of ${run.concurrency} stories in progress (${building.map((s) => s.key).join(', ')}). Call next_in_run again after one completes.`,
    );
  const ready = (s: StoryFact) =>
    s.depends_on.every((d) => {
      const dep = facts.get(d);
      return !dep || dep.cancelled || isFinished(dep);
    });
  const index = order.findIndex((s) => TO_BUILD.has(s.status) && ready(s));
  if (index >= 0)
    return { kind: 'hand_out', story: order[index]!, position: index + 1, of: order.length };
  const remaining = order.filter((s) => TO_BUILD.has(s.status));
  const on = remaining.length > 0 ? blockers(remaining, facts) : building;
  return {
    kind: 'stop',
    state: 'waiting',
    message: `Nothing in ${run.key} can start yet: the rest wait on ${on.map((s) => s.key).join(', ')}. Call next_in_run again after they complete.`,
    waiting_on: on.map((s) => ({ id: s.id, key: s.key, title: s.title, status: s.status })),
  };
};
