import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { evolveBuild } from '../../src/commands/storymap/build-fold.js';
import { coverage } from '../../src/commands/storymap/build-evidence.js';
import {
  buildRecordOf,
  openBlockerIds,
  openHandoffIds,
  testNamed,
  unansweredIds,
} from '../../src/commands/storymap/build-state.js';
import type { StoryEvent, StoryState } from '../../src/commands/storymap/story-state.js';
import { evolveStory, initialStory } from '../../src/commands/storymap/story-state.js';
import {
  initialBuild,
  openBlockers,
  openHandoffs,
  type BuildRecord,
} from '../../src/events/storymap/build-record.js';
import { StateCodec } from '../../src/events/index.js';
import '../../src/commands/snapshots.js';
import { baseEvents, eventsOf, FILES, NAMES, Op } from './build-events-arb.js';

/**
 * The decider keeps a story's building record in maps and indexes (build-state.ts, issue 39);
 * the plain fold (build-fold.ts) keeps it in arrays. After every event of random sequences the
 * two hold the same record, the indexes answer what a walk over the arrays answers, and once a
 * sequence is done every earlier state still does (the fold cache hands old states to loads).
 */
/** What the indexes answer must be what a walk over the plain record answers. */
const sameAnswers = (state: StoryState, plain: BuildRecord) => {
  assert.deepStrictEqual(buildRecordOf(state.build), plain);
  const linked = new Set(plain.tests.flatMap((t) => t.criterion_ids));
  assert.deepStrictEqual(coverage(state), {
    untested_criteria: state.criteria.map((c) => c.criterion_id).filter((c) => !linked.has(c)),
    unlinked_tests: plain.tests.filter((t) => t.criterion_ids.length === 0).map((t) => t.test_id),
  });
  for (const file of FILES)
    for (const name of NAMES.filter((x) => x !== null))
      assert.deepStrictEqual(
        testNamed(state.build, file, name),
        plain.tests.find((t) => t.file === file && t.full_name === name),
      );
  assert.deepStrictEqual(
    openBlockerIds(state.build),
    openBlockers(plain).map((x) => x.blocker_id),
  );
  assert.deepStrictEqual(
    openHandoffIds(state.build),
    openHandoffs(plain).map((x) => x.handoff_id),
  );
  assert.deepStrictEqual(
    unansweredIds(state.build),
    plain.feedback.filter((f) => f.reply === null).map((f) => f.feedback_id),
  );
};

describe('a story building record in maps (issue 39)', () => {
  it('holds what the plain fold holds, and its indexes answer what a walk answers', () =>
    fc.assert(
      fc.property(fc.array(Op, { maxLength: 40 }), (ops) => {
        const base = baseEvents();
        let state = base.reduce(evolveStory, initialStory());
        let plain = base.reduce(evolveBuild, initialBuild());
        const seen: [StoryState, BuildRecord][] = [[state, plain]];
        const events: StoryEvent[] = [];
        ops.forEach((op, n) => {
          for (const e of eventsOf(op, plain, n + 1)) {
            state = evolveStory(state, e);
            plain = evolveBuild(plain, e);
            events.push(e);
          }
          sameAnswers(state, plain);
          seen.push([state, plain]);
        });
        for (const [s, p] of [...seen].reverse()) sameAnswers(s, p);
        // a persisted snapshot of any step, then the events after it: the same answers
        const at = Math.floor(events.length / 2);
        const snapshot = StateCodec.decode<StoryState>(
          StateCodec.encode(events.slice(0, at).reduce(evolveStory, seen[0]![0])),
        );
        sameAnswers(events.slice(at).reduce(evolveStory, snapshot), plain);
      }),
      { numRuns: 300 },
    ));
});
