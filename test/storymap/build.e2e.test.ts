import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { storymapBuild } from '../../src/app/storymap/build.js';
import { fiona, withBuildServer } from './build-harness.js';
import { agentSession, ok, refused } from './session.js';

type Criterion = { id: string; text: string; priority: string; last_result: unknown };

describe('the building loop end to end (stateful HTTP, real MCP clients)', () => {
  it('start → plan → feedback → plan → tests → report → complete → next', () =>
    withBuildServer(async ({ app, session }) => {
      const call = await session();
      const s = await agentSession(call);
      const project_id = s.project_id;
      const founder = storymapBuild(app);

      const started = await ok(call, 'start_story', { project_id, story_id: 'PB-1' });
      assert.equal(started.status, 'in_progress');
      assert.equal(started.claim.state, 'held');
      assert.ok(started.warnings.some((w: string) => /no plan yet/.test(w)));
      assert.ok(started.warnings.some((w: string) => /no linked test yet/.test(w)));
      const c1 = (started.acceptance_criteria as Criterion[])[0]!;

      const second = await refused(
        call,
        'start_story',
        { project_id, story_id: 'PB-2' },
        'invalid_state',
      );
      assert.match(second.message, /already holds PB-1/);

      const v1 = await ok(call, 'save_plan', {
        project_id,
        story_id: 'PB-1',
        steps: [
          { text: 'Add the upload endpoint', files: ['src/upload.ts'] },
          { text: 'Show the photo in the book', files: ['src/book.tsx'] },
        ],
        risk: 'large photos may time out',
      });
      assert.deepEqual(
        v1.plan.steps.map((x: { id: string }) => x.id),
        ['s1', 's2'],
      );
      assert.equal(v1.review, 'awaiting');
      const todo = await ok(call, 'get_founder_todo', { project_id });
      assert.ok(todo.items.some((i: { kind: string }) => i.kind === 'plan'));

      // the founder asks for changes and rewords step s1
      await founder.reviewPlan(
        {
          project_id,
          story_id: 'PB-1',
          verdict: 'changes_requested',
          points: [{ text: 'Reuse the gallery component', step_id: 's2' }, { text: 'Add a test' }],
        },
        fiona,
      );
      await founder.editStep(
        { project_id, story_id: 'PB-1', step_id: 's1', text: 'Add POST /upload' },
        fiona,
      );
      const unanswered = await refused(
        call,
        'save_plan',
        { project_id, story_id: 'PB-1', steps: [{ id: 's1', text: 'Add POST /upload' }] },
        'FEEDBACK_UNANSWERED',
      );
      assert.deepEqual(
        (unanswered.details.plan_feedback as { feedback_id: string }[]).map((f) => f.feedback_id),
        ['f1', 'f2'],
      );
      const story = await ok(call, 'get_story', { project_id, story_id: 'PB-1' });
      const v2 = await ok(call, 'save_plan', {
        project_id,
        story_id: 'PB-1',
        expected_version: story.version,
        steps: [
          { id: 's1', text: 'Add the upload endpoint with retries', files: ['src/upload.ts'] },
          { id: 's2', text: 'Show the photo with the gallery component', files: ['src/book.tsx'] },
          { text: 'Add an end-to-end test', files: ['test/upload.test.ts'] },
        ],
        responses: [
          { feedback_id: 'f1', reply: 'Done: s2 uses the gallery' },
          { feedback_id: 'f2', reply: 'Added s3' },
        ],
      });
      assert.equal(v2.plan.version, 2);
      assert.equal(v2.feedback_answered, 2);
      assert.deepEqual(
        v2.plan.steps.map((x: { id: string }) => x.id),
        ['s1', 's2', 's3'],
      );
      assert.ok(
        v2.warnings.some((w: string) => /Step s1 was written by fiona .* reworded/.test(w)),
        JSON.stringify(v2.warnings),
      );
      await founder.reviewPlan({ project_id, story_id: 'PB-1', verdict: 'approved' }, fiona);

      const tests = await ok(call, 'save_tests', {
        project_id,
        story_id: 'PB-1',
        tests: [
          {
            title: 'an uploaded photo shows in the book',
            criterion_ids: [c1.id],
            file: 'test/upload.test.ts',
            full_name: 'upload > shows in the book',
          },
        ],
      });
      assert.equal(tests.added, 1);
      assert.deepEqual(tests.untested_criteria, []);

      const bad = await refused(
        call,
        'report_criteria',
        {
          project_id,
          story_id: 'PB-1',
          results: [
            { criterion_id: c1.id.slice(0, 6), status: 'pass' },
            { criterion_id: 'zzzz-nothing', status: 'pass' },
          ],
        },
        'invalid_argument',
      );
      assert.deepEqual(
        (bad.details.valid_ids as { id: string }[]).map((v) => v.id),
        [c1.id],
      );
      const failed = await ok(call, 'report_criteria', {
        project_id,
        story_id: 'PB-1',
        results: [{ criterion_id: c1.id.slice(0, 4), status: 'fail', detail: 'times out' }],
      });
      assert.equal(failed.failed, 1);
      assert.equal(failed.criteria[0].last_result.attempt, 1);
      const early = await refused(
        call,
        'complete_story',
        { project_id, story_id: 'PB-1', summary: 'upload works' },
        'invalid_state',
      );
      assert.deepEqual(early.details.blocking, [
        { criterion_id: c1.id, text: c1.text, state: 'fail' },
      ]);
      const passed = await ok(call, 'report_criteria', {
        project_id,
        story_id: 'PB-1',
        results: [{ criterion_id: c1.id, status: 'pass' }],
      });
      assert.equal(passed.criteria[0].last_result.attempt, 2);
      const listed = await ok(call, 'list_stories', { project_id });
      assert.equal(listed.stories.find((x: { key: string }) => x.key === 'PB-1').passing_count, 1);

      const done = await ok(call, 'complete_story', {
        project_id,
        story_id: 'PB-1',
        summary: 'Upload with retries; photos show via the gallery.',
        implemented_files: ['src/upload.ts', 'src/book.tsx'],
        pr_url: 'https://github.com/acme/photobook/pull/12',
      });
      assert.equal(done.status, 'done');
      assert.equal(done.next_story.key, 'PB-2');
      assert.match(done.text, /Next in release 1: PB-2 Arrange pages/);
      assert.match(done.pr_footer, /^Implements PB-1: Upload photos/);
      const after = await ok(call, 'get_story', { project_id, story_id: 'PB-1' });
      assert.equal(after.claim, null);
      assert.equal(after.pr_number, 12);
      assert.equal(after.acceptance_criteria[0].last_result.status, 'pass');

      // next: the session is free again
      const next = await ok(call, 'start_story', { project_id, story_id: done.next_story.id });
      assert.equal(next.key, 'PB-2');
      const blocker = await ok(call, 'raise_blocker', {
        project_id,
        story_id: 'PB-2',
        summary: 'No image library',
        attempting: 'resize pages',
        failing: 'sharp needs a native build',
        decision_needed: 'May we add sharp?',
      });
      const handoff = await ok(call, 'needs_founder', {
        project_id,
        story_id: 'PB-2',
        action: 'Create a print-shop account',
      });
      const context = await ok(call, 'get_session_context', { project_id });
      assert.equal(context.stories.current.key, 'PB-2');
      assert.equal(context.stories.current.claimed_by_this_session, true);
      assert.deepEqual(
        context.blockers.map((b: { kind: string }) => b.kind),
        ['blocker', 'needs_founder'],
      );
      const waiting = await ok(call, 'get_founder_todo', { project_id });
      const kinds = waiting.items.map((i: { kind: string }) => i.kind);
      assert.ok(kinds.includes('blocker') && kinds.includes('needs_founder'), kinds.join());
      await founder.clearBlocker(
        { project_id, story_id: 'PB-2', blocker_id: blocker.blocker_id, decision: 'yes' },
        fiona,
      );
      await founder.clearHandoff(
        { project_id, story_id: 'PB-2', handoff_id: handoff.handoff_id.slice(0, 8) },
        fiona,
      );
      const cleared = await ok(call, 'get_founder_todo', { project_id });
      assert.ok(
        !cleared.items.some((i: { kind: string }) => ['blocker', 'needs_founder'].includes(i.kind)),
      );
      const linked = await ok(call, 'link_pr', {
        project_id,
        story_id: 'PB-2',
        pr_url: 'https://github.com/acme/photobook/pull/13',
      });
      assert.equal(linked.pr_number, 13);
      assert.equal(linked.stamped, false);
    }));

  it('8 sessions race for one story: one wins, the others are told the holder; a quiet claim is taken over', () =>
    withBuildServer(async ({ session, clock, stateless }) => {
      const first = await session();
      const { project_id } = await agentSession(first);
      const racers = await Promise.all(Array.from({ length: 8 }, () => session()));
      const answers = await Promise.all(
        racers.map((call) => call('start_story', { project_id, story_id: 'PB-3' })),
      );
      const winners = answers.filter((a) => a.ok);
      assert.equal(winners.length, 1, JSON.stringify(answers.map((a) => a.error?.code)));
      const holder = (winners[0]!.result as { claim: { session_id: string } }).claim.session_id;
      for (const lost of answers.filter((a) => !a.ok)) {
        assert.equal(lost.error!.code, 'conflict');
        assert.equal((lost.error!.details.holder as { session_id: string }).session_id, holder);
        assert.match(lost.error!.message, /held by another live session/);
      }
      const story = await ok(first, 'get_story', { project_id, story_id: 'PB-3' });
      assert.equal(story.build_sequence, 2, 'it was sequenced already: no new sequence');
      assert.equal(story.history.filter((h: { to: string }) => h.to === 'in_progress').length, 1);

      // one session starting two stories at once holds one of them
      const both = await session();
      const two = await Promise.all(
        ['PB-1', 'PB-2'].map((story_id) => both('start_story', { project_id, story_id })),
      );
      assert.equal(two.filter((a) => a.ok).length, 1, JSON.stringify(two.map((a) => a.error)));
      assert.equal(two.find((a) => !a.ok)!.error!.code, 'invalid_state');

      // quiet for 31 minutes: a new session takes the story over, with a warning
      clock.advance(31 * 60);
      const late = await session();
      const taken = await ok(late, 'start_story', { project_id, story_id: 'PB-3' });
      assert.ok(
        taken.warnings.some((w: string) => w.startsWith('Taken over from a quiet session')),
        JSON.stringify(taken.warnings),
      );
      // release_current hands back the held story
      await refused(late, 'start_story', { project_id, story_id: 'PB-1' }, 'invalid_state');
      const moved = await ok(late, 'start_story', {
        project_id,
        story_id: 'PB-1',
        release_current: true,
      });
      assert.equal(moved.released, 'PB-3');
      const back = await ok(late, 'get_story', { project_id, story_id: 'PB-3' });
      assert.equal(back.claim, null);

      // stateless HTTP: no session id, so start_story needs the session argument
      const bare = await stateless();
      const needs = await refused(
        bare,
        'start_story',
        { project_id, story_id: 'PB-1' },
        'invalid_argument',
      );
      assert.match(needs.message, /needs a session/);
    }));
});
