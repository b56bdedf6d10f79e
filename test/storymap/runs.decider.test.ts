import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { scoreComplexity } from '../../src/commands/storymap/complexity.js';
import { designDecider, type DesignEvent } from '../../src/commands/storymap/design.js';
import { RUN_NUMBER_TAKEN, runDecider } from '../../src/commands/storymap/run-founder.js';
import { nextInRun, type StoryFact } from '../../src/commands/storymap/run-next.js';
import { evolveRun, initialRun, type RunEvent } from '../../src/commands/storymap/run-state.js';
import { deciderSpec } from '../commands/decider-spec.js';
import { editor, owner, P, refuses, viewer } from './fixture.js';

const spec = deciderSpec(runDecider);
const created: RunEvent = {
  type: 'storymap.run_created',
  data: {
    project_id: P,
    run_id: 'r1',
    number: 1,
    key: 'R-1',
    title: 'First',
    story_ids: ['a', 'b', 'c'],
    concurrency: 2,
    on_failure: 'stop',
    by: 'olivia',
  },
};
const on = { project_id: P, run_id: 'r1', by: 'olivia' };
const approved: RunEvent = { type: 'storymap.run_approved', data: on };
const create = (over: Record<string, unknown> = {}) => ({
  type: 'CreateRun' as const,
  data: {
    project_id: P,
    run_id: 'r1',
    number: 1,
    title: 'First',
    story_ids: ['a', 'b', 'c'],
    concurrency: 2,
    on_failure: 'stop' as const,
    caller: owner,
    ...over,
  },
});
const decide = (given: RunEvent[], command: Parameters<typeof runDecider.decide>[0]) => () =>
  runDecider.decide(command, given.reduce(evolveRun, initialRun()));

describe('run decider (founder commands)', () => {
  it('creates a draft run', () =>
    spec([])
      .when(create({ title: '  First  ' }))
      .then([created]));

  it('refuses an agent, an empty or repeated list, a bad concurrency, a taken number', () => {
    refuses(decide([], create({ caller: editor })), 'forbidden', 'own access');
    refuses(decide([], create({ story_ids: [] })), 'invalid_argument', 'at least one story');
    const twice = refuses(decide([], create({ story_ids: ['a', 'a'] })), 'invalid_argument');
    assert.deepEqual(twice.story_ids, ['a']);
    refuses(decide([], create({ concurrency: 0 })), 'invalid_argument', 'concurrency');
    refuses(decide([], create({ concurrency: 1.5 })), 'invalid_argument', 'concurrency');
    refuses(decide([], create({ title: ' ' })), 'invalid_argument', 'title');
    refuses(decide([created], create()), 'conflict', RUN_NUMBER_TAKEN);
  });

  it('moves between states only from the states the founder can leave', () => {
    spec([created])
      .when({ type: 'ApproveRun', data: { caller: owner } })
      .then([approved]);
    spec([created, approved])
      .when({ type: 'ApproveRun', data: { caller: owner } })
      .then([]);
    spec([created, approved])
      .when({ type: 'PauseRun', data: { reason: ' lunch ', caller: owner } })
      .then([{ type: 'storymap.run_paused', data: { ...on, reason: 'lunch' } }]);
    refuses(
      decide([created], { type: 'PauseRun', data: { caller: owner } }),
      'invalid_state',
      'approve the run first',
    );
    refuses(
      decide([created, approved], { type: 'ResumeRun', data: { caller: owner } }),
      'invalid_state',
      'only a paused run resumes',
    );
    refuses(
      decide([created], { type: 'StopRun', data: { caller: owner } }),
      'invalid_state',
      'cancel a draft instead',
    );
    const stopped: RunEvent = { type: 'storymap.run_stopped', data: { ...on, reason: null } };
    refuses(
      decide([created, approved, stopped], { type: 'CancelRun', data: { caller: owner } }),
      'invalid_state',
      'over',
    );
    refuses(decide([created], { type: 'ApproveRun', data: { caller: viewer } }), 'forbidden');
    refuses(decide([], { type: 'ApproveRun', data: { caller: owner } }), 'not_found');
  });
});

const fact = (id: string, status: StoryFact['status'], ...depends_on: string[]): StoryFact => ({
  id,
  key: id.toUpperCase(),
  title: id,
  status,
  cancelled: false,
  depends_on,
});
const facts = (...list: StoryFact[]) => new Map(list.map((f) => [f.id, f]));
const run = (given: RunEvent[]) => given.reduce(evolveRun, initialRun());

describe('next_in_run (pure)', () => {
  const live = run([created, approved]);
  it('hands out in dependency order, then full, waiting, complete', () => {
    const start = nextInRun(
      live,
      facts(fact('a', 'todo', 'c'), fact('b', 'todo', 'c'), fact('c', 'todo')),
    );
    assert.equal(start.kind === 'hand_out' && start.story.id, 'c');
    const waiting = nextInRun(
      live,
      facts(fact('a', 'todo', 'c'), fact('b', 'todo', 'c'), fact('c', 'in_progress')),
    );
    assert.equal(waiting.kind === 'stop' && waiting.state, 'waiting');
    assert.deepEqual(waiting.kind === 'stop' && waiting.waiting_on?.map((w) => w.key), ['C']);
    const full = nextInRun(
      live,
      facts(fact('a', 'in_progress'), fact('b', 'in_progress'), fact('c', 'todo')),
    );
    assert.equal(full.kind === 'stop' && full.state, 'full');
    const done = nextInRun(
      live,
      facts(fact('a', 'done'), fact('b', 'approved'), { ...fact('c', 'todo'), cancelled: true }),
    );
    assert.equal(
      done.kind === 'stop' && done.state,
      'complete',
      'a cancelled story does not hold a run open',
    );
  });
  it('stops on failure, or puts the story back in the queue', () => {
    const failing = facts(fact('a', 'needs_rework'), fact('b', 'todo'), fact('c', 'todo'));
    const stop = nextInRun(live, failing);
    assert.equal(stop.kind === 'stop' && stop.state, 'stopped');
    const goOn = run([{ ...created, data: { ...created.data, on_failure: 'continue' } }, approved]);
    const again = nextInRun(goOn, failing);
    assert.equal(again.kind === 'hand_out' && again.story.id, 'a');
  });
  it('answers the founder’s states before looking at stories', () => {
    for (const [events, state] of [
      [[created], 'draft'],
      [
        [created, approved, { type: 'storymap.run_paused', data: { ...on, reason: null } }],
        'paused',
      ],
      [[created, { type: 'storymap.run_cancelled', data: { ...on, reason: 'no' } }], 'cancelled'],
    ] as [RunEvent[], string][]) {
      const n = nextInRun(run(events), facts(fact('a', 'todo')));
      assert.equal(n.kind === 'stop' && n.state, state);
    }
  });
});

describe('design decider', () => {
  const ds = deciderSpec(designDecider);
  const attached: DesignEvent = {
    type: 'storymap.design_attached',
    data: {
      project_id: P,
      story_id: 's1',
      ref_id: 'd1',
      kind: 'repo-path',
      url: 'a.html',
      selector: null,
      by: 'eddie',
    },
  };
  const fetch = (hash: string) => ({
    type: 'RecordFetch' as const,
    data: { project_id: P, story_id: 's1', ref_id: 'd1', content_hash: hash, caller: editor },
  });
  it('attaches once, and marks drift only against an earlier fetch', () => {
    ds([attached])
      .when({ type: 'AttachDesign', data: { ...attached.data, ref_id: 'd2', caller: editor } })
      .then([]);
    const first: DesignEvent = {
      type: 'storymap.design_fetched',
      data: {
        project_id: P,
        story_id: 's1',
        ref_id: 'd1',
        content_hash: 'h1',
        drifted: false,
        by: 'eddie',
      },
    };
    ds([attached]).when(fetch('h1')).then([first]);
    ds([attached, first])
      .when(fetch('h2'))
      .then([{ ...first, data: { ...first.data, content_hash: 'h2', drifted: true } }]);
  });
  it('refuses a viewer and an unknown reference, listing the valid ones', () => {
    refuses(
      () =>
        designDecider.decide(
          { ...fetch('h'), data: { ...fetch('h').data, caller: viewer } },
          [attached].reduce(designDecider.evolve, designDecider.initialState()),
        ),
      'forbidden',
    );
    const details = refuses(
      () =>
        designDecider.decide(
          { ...fetch('h'), data: { ...fetch('h').data, ref_id: 'zz' } },
          [attached].reduce(designDecider.evolve, designDecider.initialState()),
        ),
      'not_found',
    );
    assert.deepEqual(details.valid_ref_ids, ['d1']);
  });
});

describe('analyze_complexity score', () => {
  const base = {
    key: 'PB-1',
    title: 'Show a page',
    effort: 'S' as const,
    text: '',
    depends_on: 0,
    dependents: 0,
  };
  it('explains every point, stays within 1..10 and suggests an effort', () => {
    const small = scoreComplexity({ ...base, criteria: [{ text: 'It shows', priority: 'must' }] });
    assert.deepEqual([small.score, small.suggested_effort], [2, 'XS']);
    const big = scoreComplexity({
      ...base,
      effort: 'XL',
      title: 'Pay with Stripe after login, sync offline, migrate old orders',
      criteria: Array.from({ length: 10 }, (_, i) => ({
        text: `c${i}`,
        priority: 'must' as const,
      })),
      depends_on: 3,
      dependents: 4,
    });
    assert.equal(big.score, 10);
    assert.ok(big.reasoning.some((r) => r.startsWith('clamped')));
    const none = scoreComplexity({ ...base, criteria: [] });
    assert.ok(none.risks.some((r) => r.includes('no acceptance criteria')));
  });
});
