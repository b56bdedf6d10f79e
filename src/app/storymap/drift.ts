import type { Principal } from '../../commands/principal.js';
import type { StoryView } from '../../projections/storymap/views.js';
import type { App } from '../app.js';
import { changesSince, isGitRepo, type FileChange } from './git.js';
import { findRepoRoot, type RootCandidates } from './root.js';
import { storymap } from './index.js';

const noData = (story: StoryView, why: string) => ({
  story_id: story.id,
  key: story.key,
  drift: null,
  verdict: null,
  text: `No drift data for ${story.key}: ${why}.`,
});

const changeLine = (c: FileChange) =>
  `${c.file} (${c.added === null ? 'binary' : `+${c.added} −${c.removed}`})`;

/**
 * propose_drift_fix: compares what the story says it implemented (implemented_files) with the
 * bound repository's git history since it was built and its uncommitted diff, and the spec's own
 * movement since then. Code that moved under an unchanged spec → update_spec (lock in what is
 * built, after re-checking the criteria); a spec that moved after the build, or criteria CI now
 * fails (ci_regressed) → rework. Nothing is written.
 */
export const proposeDriftFix = async (
  app: App,
  args: { project_id: string; story_id: string },
  principal: Principal,
  candidates: RootCandidates,
) => {
  const reads = storymap(app).reads;
  await reads.map(args.project_id, principal);
  const story = await reads.resolve(args.project_id, args.story_id);
  const built = story.status === 'done' || story.status === 'approved';
  if (!built)
    return noData(story, `it is ${story.status}, not built: drift is measured from a build`);
  const specMoved = story.spec_changed_since_built;
  // CI now fails a criterion of the built story (intentlog storymap junit): the contract's "regressed"
  const regressed = story.ci_regressed;
  const other = specMoved || regressed;
  let changes: FileChange[] = [];
  if (story.implemented_files.length > 0) {
    const root = await findRepoRoot(app, args.project_id, candidates);
    if (!root.found && !other) return noData(story, root.reason);
    if (root.found) {
      if (!(await isGitRepo(root.path)) && !other)
        return noData(story, `${root.path} is not a git repository`);
      const since = story.implemented_at ?? story.record.built_at;
      changes = await changesSince(root.path, story.implemented_files, since);
    }
  } else if (!other)
    return noData(
      story,
      'it lists no implemented_files (complete_story or update_stories records them)',
    );
  const codeChanged = changes.length > 0;
  if (!codeChanged && !other)
    return {
      story_id: story.id,
      key: story.key,
      drift: [],
      verdict: null,
      text: `${story.key} has no drift: none of its ${story.implemented_files.length} implemented files changed since it was built, and its spec hasn't moved.`,
    };
  const drift = [
    ...(codeChanged ? ['code_changed'] : []),
    ...(specMoved ? ['spec_changed'] : []),
    ...(regressed ? ['regressed'] : []),
  ];
  const failing = story.acceptance_criteria.filter((c) => c.ci_regressed);
  const criteria = story.acceptance_criteria.map((c) => `[${c.priority}] ${c.text}`);
  const verdict = specMoved || regressed ? 'rework' : 'update_spec';
  const reasoning = regressed
    ? `CI now fails ${failing.length} of ${story.key}'s criteria, which passed when it was built: the code no longer does what the spec says, so the code must be fixed${specMoved ? ' (and the spec moved since the build too)' : ''}.`
    : specMoved
      ? `The spec (title or criteria) changed after ${story.key} was built, so the code was built to an older spec${codeChanged ? ', and the code has moved too' : ''}. The spec is the newer intent: the code must catch up.`
      : `The code in ${changes.length} of ${story.implemented_files.length} implemented files changed after ${story.key} was built, while its spec did not. If the criteria still pass, the spec stands and only the record needs the change; if a criterion no longer describes the behaviour, the spec should say what is built now.`;
  const proposal = regressed
    ? [
        `Rework note: make ${story.key}'s failing criteria pass in CI again, then report_criteria and record the next CI report:`,
        ...failing.map((c) => `  - [${c.priority}] ${c.text}`),
      ]
    : specMoved
      ? [
          `Rework note: rebuild ${story.key} against its current criteria, then report_criteria and complete_story again:`,
          ...criteria.map((c) => `  - ${c}`),
        ]
      : [
          `Spec changes: re-run each criterion against the changed files; for each that now fails because the behaviour changed on purpose, replace its wording (update_criterion) with what the code does; add a note naming the changed files:`,
          ...changes.map((c) => `  - ${changeLine(c)}`),
        ];
  const text = [
    `Drift on ${story.key} "${story.title}": ${drift.join(' and ')}.`,
    ...(codeChanged ? ['Changed since built:', ...changes.map((c) => `  - ${changeLine(c)}`)] : []),
    `Verdict: ${verdict}.`,
    `Reasoning: ${reasoning}`,
    ...proposal,
    'Nothing was written: a person accepts this proposal or sends the story back.',
  ].join('\n');
  return { story_id: story.id, key: story.key, drift, verdict, changes, text };
};
