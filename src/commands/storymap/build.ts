import type { Decider } from '@event-driven-io/emmett';
import { prNumber } from './build-fold.js';
import { invalidArgument, notFound } from '../errors.js';
import { requireCapability, type Caller } from './access.js';
import {
  decideComplete,
  decideStart,
  on,
  refuseCancelled,
  releaseClaim,
  type CompleteData,
  type StartData,
} from './build-claim.js';
import {
  blockedCriterion,
  decideReport,
  decideSaveTests,
  type ReportData,
  type SaveTestsData,
} from './build-evidence.js';
import {
  decideEditStep,
  decideReviewPlan,
  decideSavePlan,
  type ReviewPlanData,
  type SavePlanData,
} from './build-plan.js';
import { decideCiResults, type CiData } from './ci.js';
import { openBlockerIds, openHandoffIds } from './build-state.js';
import { requireStory } from './story.js';
import { evolveStory, initialStory, type StoryEvent, type StoryState } from './story-state.js';

/** Who and when, for the writes an agent makes while building. */
type Written = { caller: Caller; session_id: string | null; now: string };

/** The building loop's commands, each decided by one story's stream. */
export type BuildCommand =
  | { type: 'StartStory'; data: StartData }
  | { type: 'SavePlan'; data: SavePlanData }
  | { type: 'ReviewPlan'; data: ReviewPlanData }
  | { type: 'EditPlanStep'; data: { caller: Caller; now: string; step_id: string; text: string } }
  | { type: 'SaveTests'; data: SaveTestsData }
  | { type: 'ReportCriteria'; data: ReportData }
  | {
      type: 'RaiseBlocker';
      data: Written & {
        blocker_id: string;
        summary: string;
        attempting: string;
        failing: string;
        decision_needed: string;
        criterion_id?: string;
        attempts?: number;
      };
    }
  | {
      type: 'NeedsFounder';
      data: Written & { handoff_id: string; action: string; detail?: string; step_id?: string };
    }
  | {
      type: 'ClearBlocker';
      data: { caller: Caller; now: string; blocker_id: string; decision: string | null };
    }
  | {
      type: 'ClearHandoff';
      data: { caller: Caller; now: string; handoff_id: string; note: string | null };
    }
  | { type: 'CompleteStory'; data: CompleteData }
  | { type: 'LinkPr'; data: Written & { pr_url: string } }
  | { type: 'FreeClaim'; data: { caller: Caller; now: string } }
  | { type: 'RecordCiResults'; data: CiData };

type Data<T extends BuildCommand['type']> = Extract<BuildCommand, { type: T }>['data'];

const required = (fields: Record<string, string>) => {
  const empty = Object.entries(fields).filter(([, v]) => !v.trim());
  if (empty.length > 0)
    throw invalidArgument(`${empty.map(([k]) => k).join(', ')} must be non-empty`, {
      fields: empty.map(([k]) => k),
    });
};

const raiseBlocker = (s: StoryState, d: Data<'RaiseBlocker'>): StoryEvent[] => {
  requireCapability(d.caller, 'edit');
  refuseCancelled(s);
  const { summary, attempting, failing, decision_needed } = d;
  required({ summary, attempting, failing, decision_needed });
  return [
    {
      type: 'story.blocker_raised',
      data: {
        ...on(s),
        blocker_id: d.blocker_id,
        summary: summary.trim(),
        attempting: attempting.trim(),
        failing: failing.trim(),
        decision_needed: decision_needed.trim(),
        criterion_id: blockedCriterion(s, d.criterion_id),
        attempts: d.attempts ?? 1,
        session_id: d.session_id,
        by: d.caller.actor_id,
        at: d.now,
      },
    },
  ];
};

const needsFounder = (s: StoryState, d: Data<'NeedsFounder'>): StoryEvent[] => {
  requireCapability(d.caller, 'edit');
  refuseCancelled(s);
  required({ action: d.action });
  const steps = s.build.plan?.steps.map((x) => x.id) ?? [];
  if (d.step_id !== undefined && !steps.includes(d.step_id))
    throw notFound(`No step ${d.step_id} in ${s.key}'s plan.`, { valid_step_ids: steps });
  return [
    {
      type: 'story.founder_needed',
      data: {
        ...on(s),
        handoff_id: d.handoff_id,
        action: d.action.trim(),
        detail: d.detail?.trim() || null,
        step_id: d.step_id ?? null,
        session_id: d.session_id,
        by: d.caller.actor_id,
        at: d.now,
      },
    },
  ];
};

/** The founder clears an open blocker (with the decision) or a hand-off (done). */
const clearOpen = (s: StoryState, command: BuildCommand): StoryEvent[] => {
  if (command.type === 'ClearBlocker') {
    const d = command.data;
    requireCapability(d.caller, 'own');
    const open = openBlockerIds(s.build);
    const id = open.find((b) => b === d.blocker_id || b.startsWith(d.blocker_id));
    if (!id)
      throw notFound(`No open blocker ${d.blocker_id} on ${s.key}.`, { open_blockers: open });
    const data = {
      ...on(s),
      blocker_id: id,
      decision: d.decision,
      by: d.caller.actor_id,
      at: d.now,
    };
    return [{ type: 'story.blocker_cleared', data }];
  }
  if (command.type !== 'ClearHandoff') return [];
  const d = command.data;
  requireCapability(d.caller, 'own');
  const open = openHandoffIds(s.build);
  const id = open.find((h) => h === d.handoff_id || h.startsWith(d.handoff_id));
  if (!id) throw notFound(`No open hand-off ${d.handoff_id} on ${s.key}.`, { open_handoffs: open });
  const data = { ...on(s), handoff_id: id, note: d.note, by: d.caller.actor_id, at: d.now };
  return [{ type: 'story.handoff_cleared', data }];
};

const linkPr = (s: StoryState, d: Data<'LinkPr'>): StoryEvent[] => {
  requireCapability(d.caller, 'edit');
  const data = {
    ...on(s),
    pr_url: d.pr_url,
    pr_number: prNumber(d.pr_url),
    session_id: d.session_id,
    by: d.caller.actor_id,
    at: d.now,
  };
  return [{ type: 'story.pr_linked', data }];
};

export const decideBuild = (command: BuildCommand, state: StoryState): StoryEvent[] => {
  const s = requireStory(state, state.story_id);
  switch (command.type) {
    case 'StartStory':
      return decideStart(s, command.data);
    case 'SavePlan':
      return decideSavePlan(s, command.data);
    case 'ReviewPlan':
      return decideReviewPlan(s, command.data);
    case 'EditPlanStep':
      return decideEditStep(s, command.data);
    case 'SaveTests':
      return decideSaveTests(s, command.data);
    case 'ReportCriteria':
      return decideReport(s, command.data);
    case 'RaiseBlocker':
      return raiseBlocker(s, command.data);
    case 'NeedsFounder':
      return needsFounder(s, command.data);
    case 'ClearBlocker':
    case 'ClearHandoff':
      return clearOpen(s, command);
    case 'CompleteStory':
      return decideComplete(s, command.data);
    case 'LinkPr':
      return linkPr(s, command.data);
    case 'RecordCiResults':
      return decideCiResults(s, command.data);
    case 'FreeClaim': {
      requireCapability(command.data.caller, 'own');
      const claim = s.build.claim;
      if (!claim)
        throw notFound(`${s.key} isn't claimed by any session.`, { story_id: s.story_id });
      const { caller, now } = command.data;
      return releaseClaim(s, claim.session_id, caller.actor_id, now, 'founder');
    }
  }
};

export const buildDecider: Decider<StoryState, BuildCommand, StoryEvent> = {
  decide: decideBuild,
  evolve: evolveStory,
  initialState: initialStory,
};
