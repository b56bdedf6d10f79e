/**
 * Governance at small and large history, side by side in one run (issue 39): each command and
 * query on a work package of 10 and of 4,000 links (and of 10 and 4,000 events of rework
 * cycles), and on a project of 10 and of 2,000 packages, through the services on the durable
 * LevelDB store. A call's figures are the process CPU (user + system) and the wall time from the
 * call until every read model has folded what it appended, and the read-model bytes it wrote
 * (keys plus msgpack values), medians of CALLS calls, small and large interleaved.
 *
 *   npx tsc -p tsconfig.bench.json && node .tmp/bench-build/bench/governance-history.js
 *
 * LINKS (4000), PACKAGES (2000), CALLS (25) change the sizes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { governance } from '../src/app/governance/index.js';
import type { GovernanceCall } from '../src/commands/governance/run.js';
import { openIntentlog } from '../src/modules/index.js';
import {
  listWorkPackages,
  workPackageHead,
  workPackageItems,
} from '../src/projections/governance/work-package-reads.js';
import {
  compareSizes,
  countWrites,
  step,
  type Figures,
  type Row,
  type Size,
  type Step,
} from './history-harness.js';
import { fmt, median } from './stats.js';

const LINKS = Number(process.env.LINKS ?? 4000);
const PACKAGES = Number(process.env.PACKAGES ?? 2000);
const CALLS = Number(process.env.CALLS ?? 25);
const SMALL = 10;

const load0 = loadavg();
const dir = await mkdtemp(join(tmpdir(), 'intentlog-bench-governance-'));
const app = await openIntentlog({ dataDir: join(dir, 'data') });
const g = governance(app);

countWrites(app);

let keys = 0;
const as = (actor_id: string): GovernanceCall => ({
  principal: actor_id === 'system' ? { kind: 'system' } : { kind: 'actor', actor_id },
  idempotencyKey: `k${++keys}`,
});
const CAST = { po: 'PO', pm: 'PM', ivan: 'IMPLEMENTER', rita: 'REVIEWER', rolf: 'REVIEWER' };
const hex = (n: number) => n.toString(16).padStart(8, '0');

const project = async (project_id: string) => {
  await g.createProject({ project_id, name: project_id }, as('system'));
  for (const [actor_id, role] of Object.entries(CAST))
    await g.registerActor({ project_id, actor_id, role: role as 'PO' }, as('system'));
};

/** In batches of 8, so group commit shares the fsyncs while the history is built. */
const inBatches = async (n: number, fn: (i: number) => Promise<unknown>) => {
  for (let i = 0; i < n; i += 8)
    await Promise.all(Array.from({ length: Math.min(8, n - i) }, (_, k) => fn(i + k)));
};

const claimed = async (project_id: string, work_package_id: string) => {
  const at = { project_id, work_package_id };
  await g.issueWorkPackage({ ...at, title: `Package ${work_package_id}` }, as('pm'));
  await g.claimWorkPackage(at, as('ivan'));
};

const withLinks = async (project_id: string, work_package_id: string, links: number) => {
  await claimed(project_id, work_package_id);
  await inBatches(links, (i) =>
    g.linkCommit({ project_id, work_package_id, commit_id: hex(i) }, as('ivan')),
  );
};

const withCycles = async (project_id: string, work_package_id: string, events: number) => {
  const at = { project_id, work_package_id };
  await claimed(project_id, work_package_id);
  for (let i = 0; i < events / 2; i++) {
    await g.submitResult({ ...at, summary: `result ${i}` }, as('ivan'));
    await g.closeGate({ ...at, outcome: 'REWORK' }, as('pm'));
  }
};

/** A package through its whole life: issued, claimed, submitted, reviewed, accepted. */
const accepted = async (project_id: string, work_package_id: string) => {
  const at = { project_id, work_package_id };
  await claimed(project_id, work_package_id);
  await g.submitResult({ ...at, summary: 'done' }, as('ivan'));
  const { result } = await g.requestReview({ ...at, reviewer_id: 'rita' }, as('ivan'));
  await g.submitReview({ project_id, review_id: result.review_id, verdict: 'APPROVE' }, as('rita'));
  await g.closeGate({ ...at, outcome: 'ACCEPT' }, as('po'));
};

/** The same few things pending in every project, so list answers are the same size. */
const pendingFew = async (project_id: string) => {
  for (const wp of ['pending-1', 'pending-2', 'pending-3']) {
    await claimed(project_id, wp);
    await g.submitResult({ project_id, work_package_id: wp, summary: 'done' }, as('ivan'));
    await g.requestReview({ project_id, work_package_id: wp, reviewer_id: 'rita' }, as('ivan'));
  }
  for (const subject of ['first', 'second'])
    await g.raiseEscalation({ project_id, subject, details: 'help' }, as('ivan'));
};

const rows = new Map<string, Row>();
const compare = (...steps: Step[]) => compareSizes(rows, () => app, CALLS, ...steps);

const G = 'gov';
const pkg = (kind: string, size: Size) => ({
  project_id: G,
  work_package_id: `${kind}-${size}`,
});
const projectOf = (size: Size) => `projects-${size}`;

const t0 = performance.now();
await project(G);
await withLinks(G, 'links-small', SMALL);
await withLinks(G, 'links-large', LINKS);
await withCycles(G, 'cycles-small', SMALL);
await withCycles(G, 'cycles-large', LINKS);
for (const [size, n] of [
  ['small', SMALL],
  ['large', PACKAGES],
] as const) {
  await project(projectOf(size));
  await inBatches(n, (i) => accepted(projectOf(size), `WP-${i}`));
  await pendingFew(projectOf(size));
}
await app.waitFor(await app.log.head());
const built = (performance.now() - t0) / 1000;
// LevelDB compacts what the build wrote on threads of this process: let it finish first
await new Promise((resolve) => setTimeout(resolve, 10_000));

let commit = 1 << 30;
await compare(
  step('link_commit', 'a new commit', (size) =>
    g.linkCommit({ ...pkg('links', size), commit_id: hex(commit++) }, as('ivan')),
  ),
  step('link_artifact', 'a new URI', (size, i) =>
    g.linkArtifact({ ...pkg('links', size), uri: `https://example.com/${i}` }, as('rita')),
  ),
);
let review = '';
await compare(
  step('request_review', 'of rolf', async (size) => {
    const asked = await g.requestReview({ ...pkg('links', size), reviewer_id: 'rolf' }, as('ivan'));
    review = asked.result.review_id;
  }),
  step('submit_review', 'rolf answers it', () =>
    g.submitReview({ project_id: G, review_id: review, verdict: 'APPROVE' }, as('rolf')),
  ),
);
await compare(
  step('claim_work_package (refused)', 'already CLAIMED: load + decide, no append', (size) =>
    g.claimWorkPackage(pkg('links', size), as('ivan')).catch(() => undefined),
  ),
);
await compare(
  step('submit_result', 'on the rework package', (size) =>
    g.submitResult({ ...pkg('cycles', size), summary: 'again' }, as('ivan')),
  ),
  step('close_gate', 'REWORK, on the rework package', (size) =>
    g.closeGate({ ...pkg('cycles', size), outcome: 'REWORK' }, as('pm')),
  ),
);
const rita = { kind: 'actor', actor_id: 'rita' } as const;
const answers = { small: 0, large: 0 };
await compare(
  step('get_work_package (rework)', 'the answer is the same size', (size) =>
    g.getWorkPackage(pkg('cycles', size), rita),
  ),
  step('get_work_package (links)', 'the answer holds every link', async (size) => {
    answers[size] = JSON.stringify(await g.getWorkPackage(pkg('links', size), rita)).length;
  }),
);
await compare(
  ...['po', 'rita'].map((who) =>
    step(`list_pending_actions (${who})`, 'the same pending items', (size) =>
      g.listPendingActions({ project_id: projectOf(size) }, { kind: 'actor', actor_id: who }),
    ),
  ),
  step('get_project', '', (size) => g.getProject({ project_id: projectOf(size) }, rita)),
  step('sync_since', '50 events from cursor 0', (size) =>
    g.syncSince({ project_id: projectOf(size), cursor: 0, limit: 50 }, { kind: 'system' }),
  ),
  step('list of packages (web)', 'ACCEPTED, newest first, first 10', (size) =>
    listWorkPackages(app.log.models, projectOf(size), { status: 'ACCEPTED', limit: 10 }),
  ),
);
await compare(
  step('a page of links', 'the last 10 commits', async (size) => {
    const { project_id, work_package_id } = pkg('links', size);
    const head = (await workPackageHead(app.log.models, project_id, work_package_id))!;
    const offset = head.counts.commits - 10;
    await workPackageItems(app.log.models, head, 'commits', { offset, limit: 10 });
  }),
);
await compare(
  step('issue_work_package', 'in the project', (size, i) =>
    g.issueWorkPackage(
      { project_id: projectOf(size), work_package_id: `new-${i}`, title: 'new' },
      as('pm'),
    ),
  ),
  step('claim_work_package', 'the new package', (size, i) =>
    g.claimWorkPackage({ project_id: projectOf(size), work_package_id: `new-${i}` }, as('ivan')),
  ),
);
const about = { subject: 's', details: 'd', title: 't', rationale: 'r' };
await compare(
  step('raise_escalation', 'about a package', (size) =>
    g.raiseEscalation(
      { project_id: projectOf(size), ...about, work_package_id: 'WP-1' },
      as('ivan'),
    ),
  ),
  step('record_decision', 'about a package', (size) =>
    g.recordDecision(
      { project_id: projectOf(size), ...about, kind: 'technical', work_package_id: 'WP-2' },
      as('po'),
    ),
  ),
  step('baseline_release', 'of one accepted package', (size, i) =>
    g.releaseBaseline(
      { project_id: projectOf(size), baseline_id: `B${i}`, work_package_ids: [`WP-${i % SMALL}`] },
      as('po'),
    ),
  ),
);

const load1 = loadavg();
const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
const cell = (f: Figures) =>
  `${fmt(median(f.cpu))} / ${fmt(median(f.wall))} ms, ${fmt(median(f.bytes))} B`;
console.log(
  `governance at small and large history: packages of ${SMALL} and ${LINKS} links (or events of ` +
    `rework), projects of ${SMALL} and ${PACKAGES} packages; ${CALLS} calls each, medians; ` +
    `history built in ${fmt(built)} s; load average ${load0[0]!.toFixed(2)} → ${load1[0]!.toFixed(2)}\n`,
);
console.log(
  line([
    'call',
    '',
    'small: CPU / wall, bytes written',
    'large: CPU / wall, bytes written',
    'CPU ratio',
  ]),
);
console.log(line(['---', '---', '---', '---', '---']));
for (const [name, { small, large, note }] of rows)
  console.log(
    line([
      name,
      note,
      cell(small),
      cell(large),
      (median(large.cpu) / median(small.cpu)).toFixed(2),
    ]),
  );
console.log(
  `\nget_work_package (links) answers: ${fmt(answers.small)} → ${fmt(answers.large)} bytes of JSON`,
);
await app.close();
await rm(dir, { recursive: true, force: true });
