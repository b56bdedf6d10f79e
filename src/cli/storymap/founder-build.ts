import { Command } from 'commander';
import { feedbackPoint as pointOf, storymapBuild } from '../../app/storymap/build.js';
import { leaf, run, type FounderFlags } from './founder.js';

/**
 * The founder's side of the building loop: review plans (approve, request changes with
 * numbered feedback points the agent must answer), reword a plan step, clear blockers and
 * hand-offs, free a stuck claim. Each is an event through the same decider as the tools.
 */
type PlanFlags = FounderFlags & { point?: string[]; decision?: string; note?: string };

const collect = (value: string, previous: string[] = []) => [...previous, value];

const STORY = ['<story>', 'a key like PB-42, a UUID or a UUID prefix'] as const;

const plan = () =>
  new Command('plan')
    .description("review an agent's plan: approve, request changes, or reword a step")
    .addCommand(
      leaf('approve', 'approve the current plan version')
        .argument('<project>', 'the project id')
        .argument(...STORY)
        .action(
          run(async (app, principal, [project_id, story_id]) => {
            const o = await storymapBuild(app).reviewPlan(
              { project_id: project_id!, story_id: story_id!, verdict: 'approved' },
              principal,
            );
            return `${o.result.story.key}: plan version ${o.result.story.build.plan?.version} approved`;
          }),
        ),
    )
    .addCommand(
      leaf('request-changes', 'send the plan back with feedback points (ids f1, f2, …)')
        .argument('<project>', 'the project id')
        .argument(...STORY)
        .option('--point <text>', 'a feedback point; "s2: …" targets step s2 (repeatable)', collect)
        .action(
          run<PlanFlags>(async (app, principal, [project_id, story_id], flags) => {
            const o = await storymapBuild(app).reviewPlan(
              {
                project_id: project_id!,
                story_id: story_id!,
                verdict: 'changes_requested',
                points: (flags.point ?? []).map(pointOf),
              },
              principal,
            );
            const asked = o.result.events.flatMap((e) =>
              e.type === 'story.plan_reviewed' ? e.data.feedback : [],
            );
            return [
              `${o.result.story.key}: changes requested on plan version ${o.result.story.build.plan?.version}`,
              ...asked.map(
                (f) => `  ${f.feedback_id}${f.step_id ? ` (${f.step_id})` : ''}: ${f.text}`,
              ),
            ].join('\n');
          }),
        ),
    )
    .addCommand(
      leaf('edit', 'reword one step: later saves keep these words or are flagged as conflicts')
        .argument('<project>', 'the project id')
        .argument(...STORY)
        .argument('<step>', 'the step id, e.g. s2')
        .argument('<text>', 'the new wording')
        .action(
          run(async (app, principal, [project_id, story_id, step_id, text]) => {
            const o = await storymapBuild(app).editStep(
              { project_id: project_id!, story_id: story_id!, step_id: step_id!, text: text! },
              principal,
            );
            return `${o.result.story.key}: step ${step_id} now reads "${text}"`;
          }),
        ),
    );

const blocker = () =>
  new Command('blocker').description('clear a blocker an agent raised').addCommand(
    leaf('clear', 'clear a blocker with your decision')
      .argument('<project>', 'the project id')
      .argument(...STORY)
      .argument('<blocker>', 'the blocker id (or a prefix)')
      .option('--decision <text>', 'the decision the agent asked for')
      .action(
        run<PlanFlags>(async (app, principal, [project_id, story_id, blocker_id], flags) => {
          const o = await storymapBuild(app).clearBlocker(
            {
              project_id: project_id!,
              story_id: story_id!,
              blocker_id: blocker_id!,
              ...(flags.decision ? { decision: flags.decision } : {}),
            },
            principal,
          );
          return `${o.result.story.key}: blocker cleared`;
        }),
      ),
  );

const handoff = () =>
  new Command('handoff').description('mark a step an agent handed you as done').addCommand(
    leaf('done', 'mark a hand-off done')
      .argument('<project>', 'the project id')
      .argument(...STORY)
      .argument('<handoff>', 'the hand-off id (or a prefix)')
      .option('--note <text>', 'what you did, for the agent')
      .action(
        run<PlanFlags>(async (app, principal, [project_id, story_id, handoff_id], flags) => {
          const o = await storymapBuild(app).clearHandoff(
            {
              project_id: project_id!,
              story_id: story_id!,
              handoff_id: handoff_id!,
              ...(flags.note ? { note: flags.note } : {}),
            },
            principal,
          );
          return `${o.result.story.key}: hand-off done`;
        }),
      ),
  );

const release = () =>
  leaf('release', "free a story's claim (a session that is gone)")
    .argument('<project>', 'the project id')
    .argument(...STORY)
    .action(
      run(async (app, principal, [project_id, story_id]) => {
        const o = await storymapBuild(app).freeClaim(
          { project_id: project_id!, story_id: story_id! },
          principal,
        );
        return `${o.result.story.key}: claim released`;
      }),
    );

export const founderBuildCommands = (): Command[] => [plan(), blocker(), handoff(), release()];
