import { randomUUID } from 'node:crypto';
import type { Envelope } from '../storymap/session.js';
import { G, type Endpoint, type Who, type World } from './authorization-world.js';

/**
 * The arguments the walk calls each tool with, as `who`: a call that would succeed for a
 * principal the table admits, prepared by the project's own people where it needs state (a
 * package claimed by Ivan, a story in progress, a decision to amend). So a refusal is the
 * access rule's, never a bad argument's.
 */
export type Args = (w: World, who: Who) => Promise<Record<string, unknown>>;

let n = 0;
const fresh = (prefix: string) => `${prefix}-${++n}`;

export const callAs = async (
  w: World,
  who: Who,
  endpoint: Endpoint,
  name: string,
  args: Record<string, unknown>,
): Promise<Envelope> =>
  (await w.client(who, endpoint).callTool({ name, arguments: args })).structuredContent as Envelope;

const must = async (w: World, who: Who, endpoint: Endpoint, name: string, args: object) => {
  const e = await callAs(w, who, endpoint, name, { ...args });
  if (!e.ok) throw new Error(`preparing ${name} as ${who}: ${JSON.stringify(e.error)}`);
  return e.result as Record<string, unknown>;
};

// ── governance: G's PO (Olivia) issues, Ivan claims and submits, Rita reviews ──

const key = () => ({ idempotency_key: randomUUID() });
const gov = (w: World, who: Who, name: string, args: object) =>
  must(w, who, 'mcp', name, { project_id: G, ...key(), ...args });

const issued = async (w: World) => {
  const work_package_id = fresh('WP');
  await gov(w, 'olivia', 'issue_work_package', { work_package_id, title: 'Walk' });
  return work_package_id;
};
const claimed = async (w: World) => {
  const work_package_id = await issued(w);
  await gov(w, 'ivan', 'claim_work_package', { work_package_id });
  return work_package_id;
};
const submitted = async (w: World) => {
  const work_package_id = await claimed(w);
  await gov(w, 'ivan', 'submit_result', { work_package_id, summary: 'done' });
  return work_package_id;
};
const accepted = async (w: World) => {
  const work_package_id = await submitted(w);
  const review = await gov(w, 'olivia', 'request_review', { work_package_id, reviewer_id: 'rita' });
  await gov(w, 'rita', 'submit_review', { review_id: review.review_id, verdict: 'APPROVE' });
  await gov(w, 'olivia', 'close_gate', { work_package_id, outcome: 'ACCEPT' });
  return work_package_id;
};

const inG = (args: object = {}) => ({ project_id: G, ...key(), ...args });

export const governanceArgs: Record<string, Args> = {
  create_project: async () => ({ project_id: fresh('proj'), name: 'New', ...key() }),
  register_actor: async () => inG({ actor_id: fresh('newcomer'), role: 'IMPLEMENTER' }),
  get_project: async () => ({ project_id: G }),
  issue_work_package: async () => inG({ work_package_id: fresh('WP'), title: 'New work' }),
  claim_work_package: async (w) => inG({ work_package_id: await issued(w) }),
  submit_result: async (w) => inG({ work_package_id: await claimed(w), summary: 'built' }),
  close_gate: async (w) => inG({ work_package_id: await issued(w), outcome: 'REJECT' }),
  get_work_package: async (w) => ({ project_id: G, work_package_id: await issued(w) }),
  request_review: async (w) => inG({ work_package_id: await submitted(w), reviewer_id: 'rita' }),
  submit_review: async (w) => {
    const work_package_id = await submitted(w);
    const review = await gov(w, 'olivia', 'request_review', {
      work_package_id,
      reviewer_id: 'rita',
    });
    return inG({ review_id: review.review_id, verdict: 'APPROVE' });
  },
  record_decision: async () => inG({ kind: 'technical', title: 'Use LevelDB', rationale: 'local' }),
  raise_escalation: async () => inG({ subject: 'Blocked', details: 'waiting' }),
  resolve_escalation: async (w) => {
    const raised = await gov(w, 'olivia', 'raise_escalation', { subject: 'x', details: 'y' });
    return inG({ escalation_id: raised.escalation_id, resolution: 'resolved' });
  },
  link_commit: async (w) => inG({ work_package_id: await issued(w), commit_id: 'abc1234' }),
  link_artifact: async (w) =>
    inG({ work_package_id: await issued(w), uri: 'https://example.com/spec' }),
  baseline_release: async (w) =>
    inG({ baseline_id: fresh('B'), work_package_ids: [await accepted(w)] }),
  sync_since: async () => ({ project_id: G, cursor: 0 }),
  list_pending_actions: async () => ({ project_id: G }),
};

// ── the story map: Fiona (S's owner) makes the stories, starts them and logs decisions ──

const sm = (w: World, name: string, args: object) =>
  must(w, 'fiona', 'storymap', name, { project_id: w.S, ...args });

type Made = { id: string; key: string };
const story = async (w: World): Promise<Made> => {
  const made = await sm(w, 'create_stories', {
    stories: [
      { title: fresh('Walk story'), acceptance_criteria: [{ text: 'It works', priority: 'must' }] },
    ],
  });
  return (made.stories as Made[])[0]!;
};
const started = async (w: World): Promise<Made> => {
  const s = await story(w);
  await sm(w, 'start_story', { story_id: s.key, session: fresh('prep') });
  return s;
};
const criterionOf = async (w: World, key: string): Promise<string> => {
  const view = await sm(w, 'get_story', { story_id: key });
  return (view.acceptance_criteria as { id: string }[])[0]!.id;
};
const decision = async (w: World): Promise<string> =>
  (await sm(w, 'log_decision', { title: fresh('Decision'), description: 'why' }))
    .decision_id as string;

const FIGMA = 'https://www.figma.com/file/abc123/Photo-Book';
const PRD = '# Photo Book\n\n## Share a book\n\n- A link opens the book\n';

/** A project-scoped call on S; the local surface names no project (it acts on the link). */
const onS =
  (args: Record<string, unknown> = {}) =>
  async (w: World) => ({ project_id: w.S, ...args });

const building = {
  report_criteria: async (w: World) => {
    const s = await started(w);
    return {
      story_id: s.key,
      results: [{ criterion_id: await criterionOf(w, s.key), status: 'pass' }],
    };
  },
  raise_blocker: async (w: World) => ({
    story_id: (await started(w)).key,
    summary: 'No printer API',
    attempting: 'order',
    failing: 'no key',
    decision_needed: 'which printer',
  }),
};

const withS =
  (args: (w: World, who: Who) => Promise<Record<string, unknown>>) =>
  async (w: World, who: Who) => ({
    project_id: w.S,
    ...(await args(w, who)),
  });

export const storymapArgs: Record<string, Args> = {
  list_projects: async () => ({}),
  create_project: async () => ({ name: fresh('Project'), idea: 'Another idea' }),
  archive_project: onS(),
  restore_project: withS(async (w) => (await sm(w, 'archive_project', {}), {})),
  get_session_context: onS(),
  get_context: onS(),
  get_status: onS(),
  get_vision: onS(),
  get_constitution: onS(),
  set_vision: onS({ answers: { proof: 'orders' } }),
  set_constitution: onS({ answers: { proof: 'orders' } }),
  list_stories: onS(),
  get_story: onS({ story_id: 'PB-1' }),
  create_stories: withS(async () => ({ stories: [{ title: fresh('New story') }] })),
  update_stories: withS(async (w) => ({
    stories: [{ id: (await story(w)).id, title: fresh('Renamed') }],
  })),
  cancel_story: withS(async (w) => ({ story_id: (await story(w)).key, reason: 'dropped' })),
  uncancel_story: withS(async (w) => {
    const s = await story(w);
    await sm(w, 'cancel_story', { story_id: s.key });
    return { story_id: s.key };
  }),
  add_criteria: withS(async (w) => ({ story_id: (await story(w)).key, criteria: ['More works'] })),
  update_criterion: withS(async (w) => {
    const s = await story(w);
    return { story_id: s.key, criterion_id: await criterionOf(w, s.key), text: 'It works well' };
  }),
  preview_criteria_replacement: onS({ story_id: 'PB-1', criteria: ['Uploads work'] }),
  replace_criteria: withS(async (w) => ({ story_id: (await story(w)).key, criteria: ['Other'] })),
  get_build_order: onS(),
  find_orphaned_releases: onS(),
  rename_release: withS(async () => ({ release_order: 1, label: fresh('Release') })),
  check_release_readiness: onS(),
  log_decision: withS(async () => ({ title: fresh('Decision'), description: 'because' })),
  amend_decision: withS(async (w) => ({ decision_id: await decision(w), title: fresh('Amended') })),
  retract_decision: withS(async (w) => ({ decision_id: await decision(w), reason: 'wrong' })),
  add_note: onS({ story_id: 'PB-1', note: 'A note' }),
  import_prd: onS({ prd: PRD }),
  start_story: withS(async (w) => ({ story_id: (await story(w)).key, session: fresh('walk') })),
  save_plan: withS(async (w) => ({
    story_id: (await started(w)).key,
    steps: [{ text: 'Add the endpoint' }],
  })),
  save_tests: withS(async (w) => ({
    story_id: (await started(w)).key,
    tests: [{ title: 'uploads', full_name: 'upload > works', file: 'test/upload.test.ts' }],
  })),
  report_criteria: withS(building.report_criteria),
  raise_blocker: withS(building.raise_blocker),
  needs_founder: withS(async (w) => ({ story_id: (await started(w)).key, action: 'Sign up' })),
  complete_story: withS(async (w) => ({
    story_id: (await started(w)).key,
    summary: 'built',
    force: true,
  })),
  link_pr: withS(async (w) => ({
    story_id: (await started(w)).key,
    pr_url: 'https://github.com/acme/photobook/pull/1',
  })),
  get_run: onS({ run: 'R-1' }),
  next_in_run: withS(async () => ({ run: 'R-1', session: fresh('runner') })),
  get_founder_todo: onS(),
  save_design: onS({ story_id: 'PB-1', url: FIGMA }),
  get_design: withS(
    async (w) => (
      await sm(w, 'save_design', { story_id: 'PB-2', url: FIGMA }),
      { story_id: 'PB-2' }
    ),
  ),
  analyze_complexity: onS(),
  research: onS({ query: 'upload' }),
  propose_drift_fix: onS({ story_id: 'PB-1' }),
};

/** The local server's tools: the same story map (S, by the link), no project_id. */
export const localArgs: Record<string, Args> = {
  list_stories: async () => ({}),
  mark_in_progress: async (w) => ({ story_id: (await story(w)).key }),
  report_criteria: building.report_criteria,
  raise_blocker: building.raise_blocker,
  mark_done: async (w) => ({ story_id: (await started(w)).key, force: true }),
  get_status: async () => ({}),
  add_note: async () => ({ story_id: 'PB-1', note: 'A note' }),
  create_story: async () => ({ title: fresh('Local story') }),
  get_context: async () => ({}),
  log_decision: async () => ({ title: fresh('Decision'), description: 'because' }),
  amend_decision: async (w) => ({ decision_id: await decision(w), title: fresh('Amended') }),
  retract_decision: async (w) => ({ decision_id: await decision(w), reason: 'wrong' }),
  analyze_complexity: async () => ({}),
  research: async () => ({ query: 'upload' }),
  import_prd: async () => ({ prd: PRD }),
};

export const systemArgs: Record<string, Args> = {
  whoami: async () => ({}),
  server_info: async () => ({}),
};
