import { z } from 'zod';
import { storymap } from '../../app/storymap/index.js';
import { storymapBuild } from '../../app/storymap/build.js';
import { completeAnswer, prFooter, startAnswer } from '../../app/storymap/build-answers.js';
import { storymapBuildIndex } from '../../app/storymap/build-index.js';
import { conflictWarning, planView } from '../../app/storymap/build-reads.js';
import { invalidArgument } from '../../commands/errors.js';
import { coverage } from '../../commands/storymap/build-evidence.js';
import { TestType } from '../../events/storymap/index.js';
import type { AnyTool } from '../tool.js';
import type { SessionRef } from '../../commands/storymap/build-claim.js';
import { result, StoryRef, write, type Call } from './define.js';
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
import { reportTools } from './build-report-tools.js';

const startStory: AnyTool = write({
  name: 'start_story',
  title: 'Start a story',
  description:
    'Claims a story for this session and sets it in_progress; returns everything needed to build it (criteria, plan, feedback, warnings). One story per session: pass release_current to put back the one you hold. Refused for a cancelled story, an incomplete vision (constitution_required), or a story another live session holds (the holder is named); a claim quiet for 30 minutes is taken over with a warning. A story with no build sequence goes to the end of the build order.',
  args: { story_id: StoryRef, release_current: z.boolean().optional(), session: Session },
  output: result({ story_id: z.string(), warnings: z.array(z.string()), note: z.string() }),
  run: async (args, call) => {
    const session = sessionOf(call, args.session);
    if (!session)
      throw invalidArgument(
        'start_story needs a session: this call has no MCP session id (stateless HTTP). Pass session: any stable name for this agent session.',
        { field: 'session' },
      );
    return startStoryAs(call, args, session);
  },
});

/** start_story's whole answer, for a session: also what next_in_run returns once it hands out. */
export const startStoryAs = async (
  call: Call,
  args: { project_id: string; story_id: string; release_current?: boolean | undefined },
  session: SessionRef,
) => {
  const o = await storymapBuild(call.app).start(args, call.principal, session);
  const v = await viewAfter(call, args.project_id, o.result.story.story_id);
  const { map } = await storymap(call.app).reads.map(args.project_id, call.principal);
  const r = await startAnswer(storymapBuildIndex(call.app), map, v, {
    events: o.result.events,
    released: o.released,
    session_id: session.session_id,
    now: now(call),
  });
  return {
    result: r,
    summary: `${v.key} ${v.title} started${r.warnings.length ? ` (${r.warnings.length} warnings)` : ''}`,
    position: o.position,
  };
};

const savePlan: AnyTool = write({
  name: 'save_plan',
  title: 'Save implementation plan',
  overwrites: true,
  description:
    "Saves the next version of the story's plan: the whole list of steps in order (pass a step's id s1, s2… when it continues one), questions for a person, and a one-line risk. After the founder requested changes, answer every feedback point in responses or it is refused with FEEDBACK_UNANSWERED. Steps a person edited keep their words: a save that rewords or drops one is saved, recorded as a conflict and warned about.",
  args: {
    story_id: StoryRef,
    steps: z
      .array(
        z.strictObject({
          text: Text(5000),
          id: z.string().max(20).optional(),
          files: z.array(z.string().max(500)).max(200).optional(),
        }),
      )
      .min(1)
      .max(100),
    questions: z
      .array(
        z.strictObject({
          text: Text(2000),
          options: z.array(z.string().max(500)).max(20).optional(),
        }),
      )
      .max(50)
      .optional(),
    risk: z.string().max(2000).optional(),
    responses: z
      .array(z.strictObject({ feedback_id: z.string().min(1), reply: Text(5000) }))
      .max(100)
      .optional(),
    expected_version: ExpectedVersion,
    session: Session,
  },
  output: result({ story_id: z.string(), plan: z.unknown(), review: z.string() }),
  run: async (args, call) => {
    const session = sessionOf(call, args.session);
    const o = await storymapBuild(call.app).savePlan(
      args,
      call.principal,
      session?.session_id ?? null,
    );
    const plan = planView(o.result.story.build.plan);
    const conflicts = plan ? o.result.story.build.plan!.conflicts : [];
    return {
      result: {
        story_id: o.result.story.story_id,
        key: o.result.story.key,
        plan,
        review: 'awaiting',
        feedback_answered: args.responses?.length ?? 0,
        version: o.result.story.version,
        warnings: [...conflicts.map(conflictWarning), ...heldWarning(o.result, session, now(call))],
      },
      summary: `${o.result.story.key}: plan version ${plan?.version} saved, awaiting review`,
      position: o.position,
    };
  },
});

const saveTests: AnyTool = write({
  name: 'save_tests',
  title: 'Save tests',
  overwrites: true,
  description:
    "Adds tests to a story, or sets an existing test's links (pass its id). criterion_ids are full criterion ids (no prefixes); file and full_name as JUnit reports them, so CI results match. An unknown criterion or test id refuses the whole call, listing the valid ids.",
  args: {
    story_id: StoryRef,
    tests: z
      .array(
        z.strictObject({
          id: z.string().min(1).optional(),
          title: z.string().max(500).optional(),
          steps: z.string().max(10_000).optional(),
          expected_result: z.string().max(5000).optional(),
          test_type: TestType.optional(),
          criterion_ids: z.array(z.string().min(1)).max(100).optional(),
          file: z.string().max(1000).optional(),
          full_name: z.string().max(2000).optional(),
        }),
      )
      .min(1)
      .max(200),
    session: Session,
  },
  output: result({ added: z.number(), linked: z.number(), tests: z.array(z.unknown()) }),
  run: async (args, call) => {
    const o = await storymapBuild(call.app).saveTests(
      args,
      call.principal,
      sessionIdOf(call, args.session),
    );
    const saved = o.result.events.flatMap((e) => (e.type === 'story.tests_saved' ? [e.data] : []));
    const added = saved.reduce((n, d) => n + d.added.length, 0);
    const linked = saved.reduce(
      (n, d) => n + [...d.added, ...d.updated].filter((t) => t.criterion_ids.length > 0).length,
      0,
    );
    return {
      result: {
        added,
        linked,
        tests: [...o.result.story.build.tests.values()],
        ...coverage(o.result.story),
        version: o.result.story.version,
      },
      summary: `${o.result.story.key}: ${added} tests added, ${linked} linked`,
      position: o.position,
    };
  },
});

const completeStory: AnyTool = write({
  name: 'complete_story',
  title: 'Complete a story',
  description:
    "Marks the story done with a summary of what you built, saves implemented_files, releases the claim and links pr_url. Refused while any must criterion fails or is unreported (each listed with its state) unless force: true. The answer names must criteria with no linked test and files shared with built stories or another session's planned work, gives the PR footer line to add (no GitHub App here), and ends with the next story by build sequence.",
  args: {
    story_id: StoryRef,
    summary: Text(20_000),
    implemented_files: z.array(z.string().max(1000)).max(1000).optional(),
    pr_url: z.url().max(2000).optional(),
    force: z.boolean().optional(),
    session: Session,
  },
  output: result({ story_id: z.string(), text: z.string() }),
  run: async (args, call) => {
    const o = await storymapBuild(call.app).complete(
      args,
      call.principal,
      sessionIdOf(call, args.session),
    );
    const v = await viewAfter(call, args.project_id, o.result.story.story_id);
    const r = await completeAnswer(storymapBuildIndex(call.app), v);
    return { result: r, summary: r.text, position: o.position };
  },
});

const linkPr: AnyTool = write({
  name: 'link_pr',
  title: 'Link pull request',
  description:
    'Saves the pull request link on the story (its number shows on the story). No GitHub App is connected to this ledger, so nothing is stamped: the answer gives the footer line to add to the PR body.',
  args: { story_id: StoryRef, pr_url: z.url().max(2000), session: Session },
  output: result({ pr_url: z.string(), pr_footer: z.string() }),
  run: async (args, call) => {
    const o = await storymapBuild(call.app).linkPr(
      args,
      call.principal,
      sessionIdOf(call, args.session),
    );
    const s = o.result.story;
    const footer = prFooter({ key: s.key, title: s.title, id: s.story_id });
    return {
      result: {
        story_id: s.story_id,
        key: s.key,
        pr_url: s.build.pr_url!,
        pr_number: s.build.pr_number,
        stamped: false,
        pr_footer: footer,
        note: 'Saved. GitHub is not connected here: add the footer line to the PR body yourself.',
      },
      summary: `${s.key}: PR linked. Add to its body: ${footer}`,
      position: o.position,
    };
  },
});

export const buildTools: AnyTool[] = [
  startStory,
  savePlan,
  saveTests,
  ...reportTools,
  completeStory,
  linkPr,
];
