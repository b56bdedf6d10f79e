import { z } from 'zod';
import { storymapBuild } from '../../app/storymap/build.js';
import { CriterionStatus } from '../../events/storymap/index.js';
import type { AnyTool } from '../tool.js';
import {
  ExpectedVersion,
  heldWarning,
  now,
  Session,
  sessionIdOf,
  sessionOf,
  Text,
  viewAfter,
} from './build-define.js';
import { result, StoryRef, write } from './define.js';

/** The building tools that record evidence and trouble: results, blockers, hand-offs. */
const TestRef = z.strictObject({
  file: Text(1000),
  full_name: Text(2000),
  title: z.string().max(500).optional(),
});

const reportCriteria: AnyTool = write({
  name: 'report_criteria',
  title: 'Report criteria results',
  overwrites: true,
  description:
    "Records pass, fail or blocked per criterion, each as the criterion's latest with its attempt number. criterion_id: the full id or a prefix of at least 4 characters naming one criterion; any unknown, ambiguous or repeated id refuses the whole report (the valid ids are listed). tests named in a result are saved as the story's tests and linked. A story still to build moves to in_progress and is claimed for this session.",
  args: {
    story_id: StoryRef,
    results: z
      .array(
        z.strictObject({
          criterion_id: z.string().min(1),
          status: CriterionStatus,
          detail: z.string().max(10_000).optional(),
          caveat: z.string().max(5000).optional(),
          tests: z.array(TestRef).max(50).optional(),
        }),
      )
      .min(1)
      .max(200),
    expected_version: ExpectedVersion,
    session: Session,
  },
  output: result({ updated: z.number(), passed: z.number(), failed: z.number() }),
  run: async (args, call) => {
    const session = sessionOf(call, args.session);
    const o = await storymapBuild(call.app).report(args, call.principal, session);
    const s = o.result.story;
    const count = (st: string) => args.results.filter((r) => r.status === st).length;
    const testsSaved = o.result.events.flatMap((e) =>
      e.type === 'story.tests_saved' ? [...e.data.added, ...e.data.updated] : [],
    );
    const v = await viewAfter(call, args.project_id, s.story_id);
    return {
      result: {
        updated: args.results.length,
        passed: count('pass'),
        failed: count('fail'),
        blocked: count('blocked'),
        ...(o.result.events.some((e) => e.type === 'story.claimed') ? { started: true } : {}),
        ...(testsSaved.length > 0 ? { tests_saved: testsSaved } : {}),
        criteria: v.acceptance_criteria,
        version: s.version,
        warnings: heldWarning(o.result, session, now(call)),
      },
      summary: `${s.key}: ${count('pass')} passed, ${count('fail')} failed, ${count('blocked')} blocked`,
      position: o.position,
    };
  },
});

const raiseBlocker: AnyTool = write({
  name: 'raise_blocker',
  title: 'Raise a blocker',
  description:
    'Records a blocker on the story and the single decision its owner needs to make; it shows in get_founder_todo until the founder clears it. Stop work on the story after calling it.',
  args: {
    story_id: StoryRef,
    summary: Text(500),
    attempting: Text(5000),
    failing: Text(5000),
    decision_needed: Text(2000),
    criterion_id: z.string().min(1).optional(),
    attempts: z.number().int().min(1).max(1000).optional(),
    session: Session,
  },
  output: result({ summary: z.string(), decision_needed: z.string() }),
  run: async (args, call) => {
    const o = await storymapBuild(call.app).raiseBlocker(
      args,
      call.principal,
      sessionIdOf(call, args.session),
    );
    const [id] = o.result.events.flatMap((e) =>
      e.type === 'story.blocker_raised' ? [e.data.blocker_id] : [],
    );
    const b = o.result.story.build.blockers.get(id!)!;
    return {
      result: {
        story_id: o.result.story.story_id,
        key: o.result.story.key,
        blocker_id: b.blocker_id,
        summary: b.summary,
        decision_needed: b.decision_needed,
        note: 'Blocker recorded. Stop work on this story until the founder clears it.',
      },
      summary: `${o.result.story.key} blocked: ${b.summary}`,
      position: o.position,
    };
  },
});

const needsFounder: AnyTool = write({
  name: 'needs_founder',
  title: 'Hand a step to the founder',
  description:
    'Hands one step the agent cannot do (create an account, paste a secret, approve a purchase) to the founder: it shows in get_founder_todo until they mark it done (`intentlog founder handoff done`). action: what they must do; step_id: the plan step it belongs to.',
  args: {
    story_id: StoryRef,
    action: Text(2000),
    detail: z.string().max(5000).optional(),
    step_id: z.string().max(20).optional(),
    session: Session,
  },
  output: result({ handoff_id: z.string(), action: z.string() }),
  run: async (args, call) => {
    const o = await storymapBuild(call.app).needsFounder(
      args,
      call.principal,
      sessionIdOf(call, args.session),
    );
    const [id] = o.result.events.flatMap((e) =>
      e.type === 'story.founder_needed' ? [e.data.handoff_id] : [],
    );
    const h = o.result.story.build.handoffs.get(id!)!;
    return {
      result: {
        story_id: o.result.story.story_id,
        key: o.result.story.key,
        handoff_id: h.handoff_id,
        action: h.action,
        step_id: h.step_id,
        note: 'Handed to the founder. Carry on with steps that do not need it.',
      },
      summary: `${o.result.story.key}: handed to the founder: ${h.action}`,
      position: o.position,
    };
  },
});

export const reportTools: AnyTool[] = [reportCriteria, raiseBlocker, needsFounder];
