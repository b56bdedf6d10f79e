import { randomUUID } from 'node:crypto';
import { runCommand } from '../../commands/handler.js';
import type { Principal } from '../../commands/principal.js';
import type { Caller } from '../../commands/storymap/access.js';
import { buildDecider, type BuildCommand } from '../../commands/storymap/build.js';
import { QUIET_MS, TO_BUILD, type SessionRef } from '../../commands/storymap/build-claim.js';
import type { ResultInput, TestInput } from '../../commands/storymap/build-evidence.js';
import type { StepInput } from '../../commands/storymap/build-plan.js';
import { runClaiming } from '../../commands/storymap/build-session.js';
import { requireVision } from '../../commands/storymap/create-stories.js';
import { storyStream } from '../../commands/storymap/map-state.js';
import type { StoryEvent, StoryState } from '../../commands/storymap/story-state.js';
import { evolveStory, initialStory } from '../../commands/storymap/story-state.js';
import type { App } from '../app.js';
import { perApp } from '../per-app.js';
import { metaOf } from './access.js';
import { storyTarget } from './commands.js';

type On = { project_id: string; story_id: string };
export type Done = { story: StoryState; events: StoryEvent[] };

/**
 * The building loop's write side (contracts/storymap.md, "Building a story"), for the tools and
 * the founder's CLI. A command on one story runs on its stream; a claim runs over the session's
 * stream too (build-session.ts).
 */
export const storyMapBuild = (app: App) => {
  const quiet_ms = QUIET_MS;
  const now = () => app.clock().toISOString();

  const onStory = async (
    args: On,
    principal: Principal,
    command: (caller: Caller, at: string) => BuildCommand,
  ) => {
    const { caller, story_id } = await storyTarget(app, args, principal);
    return runCommand(app.log, {
      decider: buildDecider,
      stream: storyStream(args.project_id, story_id),
      command: command(caller, now()),
      meta: metaOf(caller),
      respond: (story, events): Done => ({ story, events }),
    });
  };

  /** A claim for `session`, deciding the story's events with `decide` (start or first report). */
  const claiming = async (
    args: On & { release_current?: boolean },
    principal: Principal,
    session: SessionRef,
    command: (caller: Caller, at: string) => BuildCommand,
  ) => {
    const { caller, map, story_id } = await storyTarget(app, args, principal);
    requireVision(map.vision, false);
    const at = now();
    const decided = command(caller, at);
    const seen: { released: StoryState | null } = { released: null };
    const outcome = await runClaiming(app.log, {
      projectId: args.project_id,
      storyId: story_id,
      session,
      releaseCurrent: args.release_current ?? false,
      caller,
      now: at,
      sequenceAtEnd: !map.sequence.has(story_id),
      meta: metaOf(caller),
      decide: (story) => buildDecider.decide(decided, story) as StoryEvent[],
      respond: (story, events, before): Done => {
        seen.released = before;
        return { story, events: [...events] };
      },
    });
    return { ...outcome, released: seen.released };
  };

  const peek = async (projectId: string, storyId: string) =>
    (
      await app.log.aggregateStream(storyStream(projectId, storyId), {
        evolve: evolveStory,
        initialState: initialStory,
      })
    ).state;

  return {
    quiet_ms,
    start: (args: On & { release_current?: boolean }, principal: Principal, session: SessionRef) =>
      claiming(args, principal, session, (caller, at) => ({
        type: 'StartStory',
        data: { caller, session, now: at, quiet_ms },
      })),

    /**
     * report_criteria: a story still to build is started (and claimed) by the same append, when
     * the call has a session; otherwise the results are recorded as they are.
     */
    async report(
      args: On & { results: ResultInput[]; expected_version?: number },
      principal: Principal,
      session: SessionRef | null,
    ) {
      const named = args.results.reduce((n, r) => n + (r.tests?.length ?? 0), 0);
      const data = (caller: Caller, at: string) => ({
        caller,
        session_id: session?.session_id ?? null,
        now: at,
        results: args.results,
        new_ids: Array.from({ length: named }, () => randomUUID()),
        ...(args.expected_version !== undefined ? { expected_version: args.expected_version } : {}),
      });
      const { story_id } = await storyTarget(app, args, principal);
      const before = await peek(args.project_id, story_id);
      if (session && before.exists && TO_BUILD.has(before.status) && !before.cancelled)
        return claiming({ ...args, story_id }, principal, session, (caller, at) => ({
          type: 'ReportCriteria',
          data: { ...data(caller, at), start: { session, quiet_ms } },
        }));
      const o = await onStory(args, principal, (caller, at) => ({
        type: 'ReportCriteria',
        data: data(caller, at),
      }));
      return { ...o, released: null };
    },

    savePlan: (
      args: On & {
        steps: StepInput[];
        questions?: { text: string; options?: string[] }[];
        risk?: string;
        responses?: { feedback_id: string; reply: string }[];
        expected_version?: number;
      },
      principal: Principal,
      session_id: string | null,
    ) =>
      onStory(args, principal, (caller, at) => ({
        type: 'SavePlan',
        data: {
          caller,
          session_id,
          now: at,
          steps: args.steps,
          questions: args.questions ?? [],
          risk: args.risk ?? null,
          responses: args.responses ?? [],
          ...(args.expected_version !== undefined
            ? { expected_version: args.expected_version }
            : {}),
        },
      })),

    saveTests: (
      args: On & { tests: TestInput[] },
      principal: Principal,
      session_id: string | null,
    ) =>
      onStory(args, principal, (caller, at) => ({
        type: 'SaveTests',
        data: {
          caller,
          session_id,
          now: at,
          tests: args.tests,
          new_ids: args.tests.map(() => randomUUID()),
        },
      })),

    raiseBlocker: (
      args: On & {
        summary: string;
        attempting: string;
        failing: string;
        decision_needed: string;
        criterion_id?: string;
        attempts?: number;
      },
      principal: Principal,
      session_id: string | null,
    ) => {
      const { project_id: _p, story_id: _s, ...fields } = args;
      return onStory(args, principal, (caller, at) => ({
        type: 'RaiseBlocker',
        data: { ...fields, blocker_id: randomUUID(), caller, session_id, now: at },
      }));
    },

    needsFounder: (
      args: On & { action: string; detail?: string; step_id?: string },
      principal: Principal,
      session_id: string | null,
    ) => {
      const { project_id: _p, story_id: _s, ...fields } = args;
      return onStory(args, principal, (caller, at) => ({
        type: 'NeedsFounder',
        data: { ...fields, handoff_id: randomUUID(), caller, session_id, now: at },
      }));
    },

    complete: (
      args: On & {
        summary: string;
        implemented_files?: string[];
        pr_url?: string;
        force?: boolean;
      },
      principal: Principal,
      session_id: string | null,
    ) =>
      onStory(args, principal, (caller, at) => ({
        type: 'CompleteStory',
        data: {
          caller,
          session_id,
          now: at,
          summary: args.summary,
          implemented_files: args.implemented_files ?? [],
          pr_url: args.pr_url ?? null,
          force: args.force ?? false,
        },
      })),

    linkPr: (args: On & { pr_url: string }, principal: Principal, session_id: string | null) =>
      onStory(args, principal, (caller, at) => ({
        type: 'LinkPr',
        data: { caller, session_id, now: at, pr_url: args.pr_url },
      })),

    // The founder's side (intentlog founder plan|blocker|handoff|release).
    reviewPlan: (
      args: On & {
        verdict: 'approved' | 'changes_requested';
        points?: { text: string; step_id?: string }[];
      },
      principal: Principal,
    ) =>
      onStory(args, principal, (caller, at) => ({
        type: 'ReviewPlan',
        data: { caller, now: at, verdict: args.verdict, points: args.points ?? [] },
      })),
    editStep: (args: On & { step_id: string; text: string }, principal: Principal) =>
      onStory(args, principal, (caller, at) => ({
        type: 'EditPlanStep',
        data: { caller, now: at, step_id: args.step_id, text: args.text },
      })),
    clearBlocker: (args: On & { blocker_id: string; decision?: string }, principal: Principal) =>
      onStory(args, principal, (caller, at) => ({
        type: 'ClearBlocker',
        data: { caller, now: at, blocker_id: args.blocker_id, decision: args.decision ?? null },
      })),
    clearHandoff: (args: On & { handoff_id: string; note?: string }, principal: Principal) =>
      onStory(args, principal, (caller, at) => ({
        type: 'ClearHandoff',
        data: { caller, now: at, handoff_id: args.handoff_id, note: args.note ?? null },
      })),
    freeClaim: (args: On, principal: Principal) =>
      onStory(args, principal, (caller, at) => ({ type: 'FreeClaim', data: { caller, now: at } })),
  };
};

export const storymapBuild = perApp(storyMapBuild);

/**
 * A feedback point as a person writes it (`intentlog founder plan request-changes --point`, the
 * web's feedback field): `s2: move the migration first` targets step s2; any other text is a
 * point on the whole plan.
 */
export const feedbackPoint = (text: string): { text: string; step_id?: string } => {
  const match = /^(s\d+):\s*(.+)$/s.exec(text.trim());
  return match ? { step_id: match[1]!, text: match[2]! } : { text: text.trim() };
};
