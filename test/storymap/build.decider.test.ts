import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { isDomainError } from '../../src/commands/errors.js';
import { buildDecider, type BuildCommand } from '../../src/commands/storymap/build.js';
import { QUIET_MS } from '../../src/commands/storymap/build-claim.js';
import type { StoryEvent } from '../../src/commands/storymap/story-state.js';
import { deciderSpec } from '../commands/decider-spec.js';
import {
  criteriaAdded,
  criterion,
  editor,
  owner,
  P,
  statusChanged,
  storyCreated,
  storyOf,
  viewer,
} from './fixture.js';

const given = deciderSpec(buildDecider);
const code =
  (c: string, text?: string | RegExp) =>
  (error: Error): boolean =>
    isDomainError(error) &&
    error.code === c &&
    (!text || (typeof text === 'string' ? error.message.includes(text) : text.test(error.message)));
const T0 = '2026-12-01T10:00:00.000Z';
const later = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
const on = { project_id: P, story_id: 's1' };

const base: StoryEvent[] = [
  storyCreated('s1', 1),
  criteriaAdded(
    's1',
    criterion('c1aaaa-1', 'uploads', 'must'),
    criterion('c1aaab-2', 'fast', 'must'),
    criterion('d9', 'pretty'),
  ),
];
const claimed = (session = 'A', at = T0): StoryEvent => ({
  type: 'story.claimed',
  data: { ...on, session_id: session, client: null, took_over_from: null, by: 'eddie', at },
});
const building = [...base, statusChanged('s1', 'todo', 'in_progress'), claimed()];
const start = (session: string, now = T0): BuildCommand => ({
  type: 'StartStory',
  data: { caller: editor, session: { session_id: session, client: null }, now, quiet_ms: QUIET_MS },
});
const decide = (events: StoryEvent[], command: BuildCommand): StoryEvent[] => {
  const decided = buildDecider.decide(command, storyOf(events));
  return Array.isArray(decided) ? decided : [decided];
};

describe('start_story (a story stream)', () => {
  it('claims a todo story and moves it to in_progress', () =>
    given(base)
      .when(start('A'))
      .then([statusChanged('s1', 'todo', 'in_progress'), claimed('A')]));
  it('a live session holds it: refused, naming the holder', () =>
    given(building)
      .when(start('B', later(29)))
      .thenThrows(code('conflict', 'held by another live session: A (eddie)')));
  it('a quiet claim is taken over, the takeover recorded', () => {
    const [event] = decide(building, start('B', later(31)));
    assert.equal(event!.type, 'story.claimed');
    assert.deepEqual(event!.type === 'story.claimed' && event!.data.took_over_from, {
      session_id: 'A',
      by: 'eddie',
      last_seen_at: T0,
    });
  });
  it('a write by the holder keeps the claim alive', () => {
    const note: StoryEvent = {
      type: 'story.pr_linked',
      data: { ...on, pr_url: 'u', pr_number: null, session_id: 'A', by: 'eddie', at: later(20) },
    };
    given([...building, note])
      .when(start('B', later(40)))
      .thenThrows(code('conflict'));
  });
  it('the holder starting it again changes nothing', () =>
    given(building).when(start('A')).then([]));
  it('refuses a cancelled story with its reason', () =>
    given([
      ...base,
      { type: 'story.cancelled', data: { ...on, reason: 'dropped', status: 'todo', by: 'olivia' } },
    ])
      .when(start('A'))
      .thenThrows(code('invalid_state', 'Development of PB-1 was cancelled: dropped')));
  it('refuses a finished story', () =>
    given([...base, statusChanged('s1', 'todo', 'done')])
      .when(start('A'))
      .thenThrows(code('invalid_state', 'nothing to start')));
  it('a viewer may not start a story', () =>
    given(base)
      .when({ ...start('A'), data: { ...start('A').data, caller: viewer } } as BuildCommand)
      .thenThrows(code('forbidden')));
});

const savePlan = (
  data: Partial<Extract<BuildCommand, { type: 'SavePlan' }>['data']>,
): BuildCommand => ({
  type: 'SavePlan',
  data: {
    caller: editor,
    session_id: 'A',
    now: T0,
    steps: [],
    questions: [],
    risk: null,
    responses: [],
    ...data,
  },
});
const planned: StoryEvent = {
  type: 'story.plan_saved',
  data: {
    ...on,
    plan_version: 1,
    steps: [
      { id: 's1', text: 'one', files: [], edited_by: null },
      { id: 's2', text: 'two', files: [], edited_by: null },
    ],
    questions: [],
    risk: null,
    responses: [],
    conflicts: [],
    session_id: 'A',
    by: 'eddie',
    at: T0,
  },
};
const changes: StoryEvent = {
  type: 'story.plan_reviewed',
  data: {
    ...on,
    plan_version: 1,
    verdict: 'changes_requested',
    feedback: [{ feedback_id: 'f1', text: 'split s2', step_id: 's2' }],
    by: 'olivia',
    at: T0,
  },
};
const edited: StoryEvent = {
  type: 'story.plan_step_edited',
  data: { ...on, plan_version: 1, step_id: 's1', text: 'ONE', by: 'olivia', at: T0 },
};

describe('save_plan', () => {
  it('numbers new steps after the highest id ever given', () => {
    const [e] = decide(
      [...building, planned],
      savePlan({ steps: [{ id: 's2', text: 'two' }, { text: 'three' }] }),
    );
    assert.ok(e?.type === 'story.plan_saved');
    assert.deepEqual(
      e.data.steps.map((s) => s.id),
      ['s2', 's3'],
    );
    assert.equal(e.data.plan_version, 2);
  });
  it('refuses an id that is not a step of the current plan, listing the valid ones', () =>
    given([...building, planned])
      .when(savePlan({ steps: [{ id: 's9', text: 'x' }] }))
      .thenThrows(code('invalid_argument', 's9 is not a step')));
  it('refuses a step id given twice', () =>
    given([...building, planned])
      .when(
        savePlan({
          steps: [
            { id: 's1', text: 'x' },
            { id: 's1', text: 'y' },
          ],
        }),
      )
      .thenThrows(code('invalid_argument', 'appears twice')));
  it('refuses with FEEDBACK_UNANSWERED while a requested change has no response', () =>
    given([...building, planned, changes])
      .when(savePlan({ steps: [{ text: 'x' }] }))
      .thenThrows(code('FEEDBACK_UNANSWERED', 'f1')));
  it('refuses a response to feedback that does not exist', () =>
    given([...building, planned, changes])
      .when(savePlan({ steps: [{ text: 'x' }], responses: [{ feedback_id: 'f7', reply: 'ok' }] }))
      .thenThrows(code('invalid_argument', 'No feedback f7')));
  it('refuses a stale expected_version with VERSION_CONFLICT', () =>
    given([...building, planned])
      .when(savePlan({ steps: [{ text: 'x' }], expected_version: 1 }))
      .thenThrows(code('VERSION_CONFLICT')));
  it('a save that rewords or drops a step a person edited is saved, with the conflicts', () => {
    const [e] = decide(
      [...building, planned, edited],
      savePlan({ steps: [{ id: 's2', text: 'two' }] }),
    );
    assert.ok(e?.type === 'story.plan_saved');
    assert.deepEqual(e.data.conflicts, [
      { step_id: 's1', kind: 'dropped', person_text: 'ONE', saved_text: null, edited_by: 'olivia' },
    ]);
    const [again] = decide(
      [...building, planned, edited],
      savePlan({ steps: [{ id: 's1', text: 'one, again' }] }),
    );
    assert.ok(again?.type === 'story.plan_saved');
    assert.equal(again.data.conflicts[0]!.kind, 'reworded');
    assert.equal(again.data.steps[0]!.edited_by, null);
  });
  it('keeping the person’s words is no conflict, and the step stays theirs', () => {
    const [e] = decide(
      [...building, planned, edited],
      savePlan({ steps: [{ id: 's1', text: 'ONE' }] }),
    );
    assert.ok(e?.type === 'story.plan_saved');
    assert.deepEqual(e.data.conflicts, []);
    assert.equal(e.data.steps[0]!.edited_by, 'olivia');
  });
});

describe('the founder’s review', () => {
  const review = (
    verdict: 'approved' | 'changes_requested',
    points: { text: string; step_id?: string }[] = [],
    caller = owner,
  ): BuildCommand => ({
    type: 'ReviewPlan',
    data: { caller, now: T0, verdict, points },
  });
  it('refuses a story with no plan', () =>
    given(building).when(review('approved')).thenThrows(code('invalid_state', 'has no plan')));
  it('refuses a change request with no points', () =>
    given([...building, planned])
      .when(review('changes_requested'))
      .thenThrows(code('invalid_argument')));
  it('refuses a point on a step that does not exist', () =>
    given([...building, planned])
      .when(review('changes_requested', [{ text: 'x', step_id: 's5' }]))
      .thenThrows(code('invalid_argument', 'No step s5')));
  it('numbers feedback points across rounds', () => {
    const [e] = decide(
      [...building, planned, changes],
      review('changes_requested', [{ text: 'more' }]),
    );
    assert.ok(e?.type === 'story.plan_reviewed');
    assert.equal(e.data.feedback[0]!.feedback_id, 'f2');
  });
  it('an editor is not the founder', () =>
    given([...building, planned])
      .when(review('approved', [], editor))
      .thenThrows(code('forbidden')));
});

const report = (
  results: { criterion_id: string; status: 'pass' | 'fail' | 'blocked' }[],
  extra = {},
): BuildCommand => ({
  type: 'ReportCriteria',
  data: { caller: editor, session_id: 'A', now: T0, results, new_ids: [], ...extra },
});

describe('report_criteria', () => {
  it('takes a prefix of 4 characters naming one criterion, numbering attempts', () => {
    const first = decide(building, report([{ criterion_id: 'c1aaaa', status: 'fail' }]));
    const e = first[0]!;
    assert.ok(e.type === 'criteria.reported');
    assert.deepEqual(e.data.results[0], {
      criterion_id: 'c1aaaa-1',
      status: 'fail',
      detail: null,
      caveat: null,
      attempt: 1,
    });
    const second = decide([...building, e], report([{ criterion_id: 'c1aaaa-1', status: 'pass' }]));
    assert.ok(second[0]!.type === 'criteria.reported');
    assert.equal(second[0]!.data.results[0]!.attempt, 2);
  });
  for (const [name, ref, text] of [
    ['an ambiguous prefix', 'c1aa', 'names 2 criteria'],
    ['a prefix under 4 characters', 'c1a', 'at least 4 characters'],
    ['an unknown id', 'zzzzzz', 'names no criterion'],
  ] as const)
    it(`refuses the whole report for ${name}, listing the valid ids`, () => {
      try {
        decide(
          building,
          report([
            { criterion_id: 'c1aaab-2', status: 'pass' },
            { criterion_id: ref, status: 'pass' },
          ]),
        );
        assert.fail('expected a refusal');
      } catch (error) {
        assert.ok(code('invalid_argument', text)(error as Error), String(error));
        assert.equal((error as { details: { valid_ids: unknown[] } }).details.valid_ids.length, 3);
      }
    });
  it('refuses a criterion reported twice', () =>
    given(building)
      .when(
        report([
          { criterion_id: 'c1aaaa-1', status: 'pass' },
          { criterion_id: 'c1aaaa', status: 'fail' },
        ]),
      )
      .thenThrows(code('invalid_argument', 'reported twice')));
  it('a first report on a todo story starts and claims it', () => {
    const events = decide(
      base,
      report([{ criterion_id: 'd9', status: 'pass' }], {
        start: { session: { session_id: 'A', client: null }, quiet_ms: QUIET_MS },
      }),
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['story.status_changed', 'story.claimed', 'criteria.reported'],
    );
  });
});

describe('complete_story', () => {
  const complete = (force = false): BuildCommand => ({
    type: 'CompleteStory',
    data: {
      caller: editor,
      session_id: 'A',
      now: T0,
      summary: 'built',
      implemented_files: ['a.ts'],
      pr_url: null,
      force,
    },
  });
  const passed: StoryEvent = {
    type: 'criteria.reported',
    data: {
      ...on,
      results: [
        { criterion_id: 'c1aaaa-1', status: 'pass', detail: null, caveat: null, attempt: 1 },
      ],
      session_id: 'A',
      by: 'eddie',
      at: T0,
    },
  };
  it('refuses while a must criterion fails or is unreported, listing each with its state', () => {
    try {
      decide([...building, passed], complete());
      assert.fail('expected a refusal');
    } catch (error) {
      assert.ok(code('invalid_state', 'not passing')(error as Error));
      assert.deepEqual((error as { details: { blocking: unknown } }).details.blocking, [
        { criterion_id: 'c1aaab-2', text: 'fast', state: 'unreported' },
      ]);
    }
  });
  it('with force, completes and records what was unmet', () => {
    const events = decide([...building, passed], complete(true));
    assert.deepEqual(
      events.map((e) => e.type),
      ['story.status_changed', 'story.completed'],
    );
    const done = events[1]!;
    assert.ok(done.type === 'story.completed');
    assert.deepEqual(done.data.unmet, [{ criterion_id: 'c1aaab-2', state: 'unreported' }]);
    assert.equal(done.data.forced, true);
    assert.equal(
      storyOf([...building, passed, ...events]).build.claim,
      null,
      'the claim is released',
    );
  });
  it('refuses a story already done', () =>
    given([...base, statusChanged('s1', 'todo', 'done')])
      .when(complete(true))
      .thenThrows(code('invalid_state', 'already done')));
});

describe('tests, blockers and hand-offs', () => {
  it('save_tests refuses an unknown criterion id (no prefixes), saving nothing', () =>
    given(building)
      .when({
        type: 'SaveTests',
        data: {
          caller: editor,
          session_id: 'A',
          now: T0,
          tests: [{ title: 't', criterion_ids: ['c1aaaa'] }],
          new_ids: ['t1'],
        },
      })
      .thenThrows(code('invalid_argument', 'is not a live criterion')));
  it('save_tests refuses a test id that names no test on the story', () =>
    given(building)
      .when({
        type: 'SaveTests',
        data: {
          caller: editor,
          session_id: 'A',
          now: T0,
          tests: [{ id: 'nope' }],
          new_ids: ['t1'],
        },
      })
      .thenThrows(code('invalid_argument', 'names no test')));
  it('raise_blocker refuses empty fields and an unknown criterion', () => {
    const blocker = (fields: Record<string, string>): BuildCommand => ({
      type: 'RaiseBlocker',
      data: {
        caller: editor,
        session_id: 'A',
        now: T0,
        blocker_id: 'b1',
        summary: 's',
        attempting: 'a',
        failing: 'f',
        decision_needed: 'd',
        ...fields,
      },
    });
    assert.throws(
      () => decide(building, blocker({ decision_needed: ' ' })),
      code('invalid_argument', 'decision_needed'),
    );
    assert.throws(() => decide(building, blocker({ criterion_id: 'qqqq' })), code('not_found'));
  });
  it('the founder clears only an open blocker', () =>
    given(building)
      .when({
        type: 'ClearBlocker',
        data: { caller: owner, now: T0, blocker_id: 'b1', decision: null },
      })
      .thenThrows(code('not_found', 'No open blocker')));
  it('needs_founder refuses a step that is not in the plan', () =>
    given([...building, planned])
      .when({
        type: 'NeedsFounder',
        data: {
          caller: editor,
          session_id: 'A',
          now: T0,
          handoff_id: 'h1',
          action: 'pay',
          step_id: 's9',
        },
      })
      .thenThrows(code('not_found', 'No step s9')));
});
