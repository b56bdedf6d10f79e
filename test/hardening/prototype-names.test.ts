import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { App } from '../../src/app/app.js';
import { governance } from '../../src/app/governance/index.js';
import { isId } from '../../src/commands/ids.js';
import { SYSTEM, type Principal } from '../../src/commands/principal.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { asset } from '../../src/web/assets.js';
import { connect, withApp } from '../mcp/harness.js';
import { withMissions } from '../missions/harness.js';
import { localSession, withLinkedRoot } from '../storymap/local-fixture.js';
import { callOf, codeOf, type AnyEnvelope as Answer } from '../storymap/session.js';

/**
 * Issue 28: `toString` as an actor or reviewer id answered `internal`, because records keyed by
 * caller text are plain objects and inherit Object.prototype's names. Every name an object
 * inherits, and ids of the same shape, as actors, reviewers and the ids and words tools look up:
 * never `internal`, and a name nobody made is never found.
 */
const INHERITED = [
  ...new Set([
    ...Object.getOwnPropertyNames(Object.prototype),
    ...Object.getOwnPropertyNames(Function.prototype),
  ]),
].filter((n) => /^[A-Za-z0-9._:/-]+$/.test(n));
const name = fc.oneof(
  { arbitrary: fc.constantFrom(...INHERITED), weight: 3 },
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/),
);
/** Every inherited name is tried, then random ones. */
const RUNS = { examples: INHERITED.map((n) => [n] as [string]), numRuns: INHERITED.length + 20 };

const actor = (actor_id: string): Principal => ({ kind: 'actor', actor_id });
const surface = (name: string) => resolveSurfaces(surfacesOf(modules), name);

/** A refusal or a success, never the server failing. */

const answered = (what: string, e: Answer) => {
  assert.ok(e, `${what}: no envelope`);
  assert.notEqual(codeOf(e), 'internal', `${what}: ${JSON.stringify(e.error)}`);
  return e;
};
const refusedWith = (what: string, e: Answer, codes: readonly string[]) => {
  answered(what, e);
  assert.equal(e.ok, false, `${what} found what nobody made`);
  assert.ok(codes.includes(codeOf(e) ?? ''), `${what}: ${JSON.stringify(e.error)}`);
};

/** A governance project of its own for each run (a name drawn twice starts a stranger again). */
const governanceProject = async (app: App): Promise<string> => {
  const g = governance(app);
  const sys = () => ({ principal: SYSTEM, idempotencyKey: randomUUID() });
  const project_id = `p-${randomUUID()}`;
  await g.createProject({ project_id, name: 'Acme' }, sys());
  for (const [actor_id, role] of [
    ['ivan', 'IMPLEMENTER'],
    ['pat', 'PM'],
  ] as const)
    await g.registerActor({ project_id, actor_id, role }, sys());
  return project_id;
};

describe('names Object.prototype holds, as ids and words (issue 28)', () => {
  it('governance: as an actor, a reviewer and a work package id', () =>
    withApp(async (app) => {
      const other = await governanceProject(app);
      const sys = callOf(await connect(app, surface('governance')));
      const ivan = callOf(await connect(app, surface('governance'), actor('ivan')));
      const pat = callOf(await connect(app, surface('governance'), actor('pat')));
      await fc.assert(
        fc.asyncProperty(name, async (n) => {
          const project_id = await governanceProject(app);
          const key = () => ({ project_id, idempotency_key: randomUUID() });
          const as = callOf(await connect(app, surface('governance'), actor(n)));
          refusedWith('get_project before', await as('get_project', { project_id }), ['forbidden']);
          const wp = `WP-${randomUUID()}`;
          answered(
            'issue',
            await pat('issue_work_package', { ...key(), work_package_id: wp, title: 't' }),
          );
          answered('claim', await ivan('claim_work_package', { ...key(), work_package_id: wp }));
          answered(
            'submit',
            await ivan('submit_result', { ...key(), work_package_id: wp, summary: 's' }),
          );
          const unknownReviewer = await ivan('request_review', {
            ...key(),
            work_package_id: wp,
            reviewer_id: n,
          });
          refusedWith('a reviewer nobody registered', unknownReviewer, [
            'invalid_argument',
            'invalid_state',
            'forbidden',
            'not_found',
          ]);
          const registered = answered(
            'register_actor',
            await sys('register_actor', { ...key(), actor_id: n, role: 'REVIEWER' }),
          );
          assert.equal(registered.ok, isId(n), JSON.stringify(registered.error));
          if (!registered.ok) return;
          const review = answered(
            'request_review',
            await ivan('request_review', { ...key(), work_package_id: wp, reviewer_id: n }),
          );
          assert.equal(review.ok, true, JSON.stringify(review.error));
          const reviewed = await as('submit_review', {
            ...key(),
            review_id: review.result!.review_id,
            verdict: 'APPROVE',
          });
          assert.equal(answered('submit_review', reviewed).ok, true);
          assert.equal(answered('get_project', await as('get_project', { project_id })).ok, true);
          answered('pending', await as('list_pending_actions', { project_id }));
          refusedWith('another project', await as('get_project', { project_id: other }), [
            'forbidden',
          ]);
          refusedWith(
            'a baseline of an unknown package',
            await pat('baseline_release', {
              ...key(),
              baseline_id: `B-${randomUUID()}`,
              work_package_ids: [n],
            }),
            ['not_found', 'invalid_argument'],
          );
          answered(
            'register again',
            await pat('register_actor', { ...key(), actor_id: n, role: 'PA' }),
          );
        }),
        RUNS,
      );
    }));

  it('the story map, hosted and local: as an owner, a stranger, a story id and a filter word', () =>
    withApp(async (app) => {
      const { project_id } = await localSession(app, 'all');
      await withLinkedRoot(project_id, async () => {
        const local = callOf(await connect(app, surface('storymap-local:all')));
        await fc.assert(
          fc.asyncProperty(name, async (n) => {
            const as = callOf(await connect(app, surface('storymap'), actor(n)));
            refusedWith('a stranger', await as('get_status', { project_id }), ['not_found']);
            refusedWith(
              'a story nobody made',
              await as('get_story', { project_id: n, story_id: n }),
              ['not_found', 'invalid_argument'],
            );
            const own = answered(
              'create_project',
              await as('create_project', { name: n, idea: 'x' }),
            );
            if (!isId(n)) return;
            assert.equal(own.ok, true, JSON.stringify(own.error));
            const mine = own.result!.project_id as string;
            assert.equal(
              answered('get_status', await as('get_status', { project_id: mine })).ok,
              true,
            );
            assert.equal(answered('list_projects', await as('list_projects', {})).ok, true);
            const listed = answered('filter', await local('list_stories', { filter: n }));
            assert.equal(listed.ok, true, JSON.stringify(listed.error));
          }),
          RUNS,
        );
      });
    }));

  it('missions: as a mission, session, intake, checkpoint and focus id', () =>
    withMissions(async ({ call, dirs }) => {
      const at = { project_path: dirs.project };
      await fc.assert(
        fc.asyncProperty(name, async (n) => {
          const missing = ['invalid_args', 'mission_not_active', 'lease_revoked', 'not_found'];
          refusedWith(
            'park_item',
            await call('hai_park_item', {
              ...at,
              idea: 'an idea',
              origin_session_id: n,
              trigger_event: 'talk',
              mission_id: n,
              rationale: 'later',
            }),
            missing,
          );
          refusedWith(
            'get_contract',
            await call('hai_get_contract', { ...at, session_id: n }),
            missing,
          );
          refusedWith(
            'distill',
            await call('hai_distill', {
              ...at,
              intake_id: n,
              decision: 'd',
              next_step: 'n',
              parklist: [],
            }),
            missing,
          );
          refusedWith(
            'close',
            await call('hai_close_mission', {
              ...at,
              mission_id: n,
              contract_version: 1,
              outcome_summary: 'done',
              closure: 'completed',
            }),
            [...missing, 'review_required'],
          );
          answered('recover', await call('hai_recover', { ...at, checkpoint_id: n }));
          answered(
            'set_focus',
            await call('hai_set_focus', { ...at, focus_id: n, status: 'PARKED' }),
          );
        }),
        RUNS,
      );
    }));

  it('the web view: an asset by an inherited name is not found', async () => {
    for (const n of INHERITED) assert.equal(await asset(n), undefined, n);
  });
});
