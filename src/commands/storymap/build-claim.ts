import type { Claim } from '../../events/storymap/build-record.js';
import { resultStatus } from './build-state.js';
import { conflict, invalidArgument, invalidState } from '../errors.js';
import { requireCapability, type Caller } from './access.js';
import { BUILT } from './story.js';
import type { StoryEvent, StoryState } from './story-state.js';

/**
 * How long a claim's holder may stay silent before another session may take the story over:
 * 30 minutes, the time after which `serve --stateful` closes an idle MCP session itself.
 * "Silent" means no write on the story by the holding session (save_plan, save_tests,
 * report_criteria, raise_blocker, needs_founder, link_pr, start_story again).
 */
export const QUIET_MS = 30 * 60 * 1000;

/** The MCP session a call belongs to (docs/storymap.md, "Sessions and claims"). */
export type SessionRef = { session_id: string; client: string | null };

/** Statuses a story is built from: start_story and a first report move them to in_progress. */
export const TO_BUILD = new Set(['todo', 'ready_for_dev', 'needs_rework']);

export const on = (s: StoryState) => ({ project_id: s.project_id, story_id: s.story_id });

export const isQuiet = (claim: Claim, now: string, quietMs: number): boolean =>
  Date.parse(now) - Date.parse(claim.last_seen_at) > quietMs;

export const holderOf = (claim: Claim) => ({
  session_id: claim.session_id,
  actor: claim.by,
  client: claim.client,
  claimed_at: claim.claimed_at,
  last_seen_at: claim.last_seen_at,
});

/** A cancelled story is a hard stop for every building tool (contracts/storymap.md). */
export const refuseCancelled = (s: StoryState): void => {
  if (s.cancelled)
    throw invalidState(
      `Development of ${s.key} was cancelled${s.cancelled.reason ? `: ${s.cancelled.reason}` : ''}. Stop all work on it.`,
      { story_id: s.story_id, cancellation_reason: s.cancelled.reason },
    );
};

export type StartData = { caller: Caller; session: SessionRef; now: string; quiet_ms: number };

/**
 * Claims the story for the session and moves it to in_progress. Refused for a cancelled or
 * finished story and for one a live session holds (naming the holder); a quiet holder's claim
 * is taken over, the takeover recorded. One story per session is the session stream's rule
 * (build-session.ts): this decides the story's side only.
 */
export const decideStart = (s: StoryState, d: StartData): StoryEvent[] => {
  requireCapability(d.caller, 'edit');
  refuseCancelled(s);
  if (BUILT.has(s.status))
    throw invalidState(
      `${s.key} is ${s.status}: nothing to start. If it needs more work, set it to needs_rework first.`,
      { story_id: s.story_id, status: s.status },
    );
  const events: StoryEvent[] = [];
  if (s.status !== 'in_progress')
    events.push({
      type: 'story.status_changed',
      data: { ...on(s), from: s.status, to: 'in_progress', by: d.caller.actor_id, via: 'mcp' },
    });
  const claim = s.build.claim;
  if (claim?.session_id === d.session.session_id) return events;
  if (claim && !isQuiet(claim, d.now, d.quiet_ms))
    throw conflict(
      `${s.key} is held by another live session: ${claim.session_id} (${claim.by}${claim.client ? `, ${claim.client}` : ''}), claimed at ${claim.claimed_at}, last seen at ${claim.last_seen_at}. Pick another story, or wait until it is quiet for ${Math.round(d.quiet_ms / 60_000)} minutes.`,
      { story_id: s.story_id, key: s.key, holder: holderOf(claim) },
    );
  events.push({
    type: 'story.claimed',
    data: {
      ...on(s),
      session_id: d.session.session_id,
      client: d.session.client,
      took_over_from: claim
        ? { session_id: claim.session_id, by: claim.by, last_seen_at: claim.last_seen_at }
        : null,
      by: d.caller.actor_id,
      at: d.now,
    },
  });
  return events;
};

/** The story a session gives back with release_current (or the founder frees). */
export const releaseClaim = (
  s: StoryState,
  session: string,
  by: string,
  now: string,
  reason: 'released' | 'founder',
): StoryEvent[] =>
  s.build.claim?.session_id === session
    ? [
        {
          type: 'story.claim_released',
          data: { ...on(s), session_id: session, reason, by, at: now },
        },
      ]
    : [];

/** A must criterion's state for complete_story: its latest result, or unreported. */
export const mustStates = (s: StoryState) =>
  s.criteria
    .filter((c) => c.priority === 'must')
    .map((c) => ({
      criterion_id: c.criterion_id,
      text: c.text,
      state: resultStatus(s.build, c.criterion_id) ?? 'unreported',
    }));

export type CompleteData = {
  caller: Caller;
  session_id: string | null;
  now: string;
  summary: string;
  implemented_files: string[];
  pr_url: string | null;
  force: boolean;
};

/** Done, with the summary and files; refused while a must criterion fails or is unreported. */
export const decideComplete = (s: StoryState, d: CompleteData): StoryEvent[] => {
  requireCapability(d.caller, 'edit');
  refuseCancelled(s);
  if (BUILT.has(s.status))
    throw invalidState(`${s.key} is already ${s.status}.`, {
      story_id: s.story_id,
      status: s.status,
    });
  const summary = d.summary.trim();
  if (!summary) throw invalidArgument('summary must say what you built', { field: 'summary' });
  const unmet = mustStates(s).filter((m) => m.state !== 'pass');
  if (unmet.length > 0 && !d.force)
    throw invalidState(
      `${s.key} can't be completed: ${unmet.length} must criteria are not passing (${unmet.map((m) => `${m.criterion_id.slice(0, 8)} ${m.state}`).join(', ')}). Fix and report_criteria, or pass force: true.`,
      { story_id: s.story_id, blocking: unmet },
    );
  return [
    {
      type: 'story.status_changed',
      data: { ...on(s), from: s.status, to: 'done', by: d.caller.actor_id, via: 'mcp' },
    },
    {
      type: 'story.completed',
      data: {
        ...on(s),
        summary,
        implemented_files: [...new Set(d.implemented_files)],
        pr_url: d.pr_url,
        forced: unmet.length > 0,
        unmet: unmet.map(({ criterion_id, state }) => ({ criterion_id, state })),
        session_id: d.session_id,
        by: d.caller.actor_id,
        at: d.now,
      },
    },
  ];
};
