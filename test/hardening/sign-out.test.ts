// Sign-out is immediate (issue 40, point 5): after `POST /signout` answers 303, the old cookie
// is never served again, even while other writes keep the read models busy. The session check
// used to trust the sign-in read model and wait for the log only on a miss: a sign-out not yet
// folded left the cookie live for tens of milliseconds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate } from 'node:timers/promises';
import { governance } from '../../src/app/governance/index.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { signIn } from '../../src/web/project/sign-in.js';
import { csrfOf, getPage, postForm, withWeb } from '../web/harness.js';

const ROUNDS = 25;

describe('sign-out is immediate, whatever the read models lag (issue 40)', () => {
  it('the session check refuses a signed-out session the moment its sign-out is appended', () =>
    withWeb(async (web) => {
      const service = signIn(web.app);
      for (let round = 0; round < ROUNDS; round++) {
        const cookie = await web.signInAs();
        const session = await service.session(cookie);
        assert.ok(session, 'signed in');
        await service.signOut(session.codeId);
        assert.equal(await service.session(cookie), undefined, `round ${round}`);
      }
    }));

  it(`over HTTP, with writes going on beside it, ${ROUNDS} rounds: never 200 after the 303`, () =>
    withWeb(async (web) => {
      const g = governance(web.app);
      let writing = true;
      let n = 0;
      const writer = (async () => {
        // a write per turn of the event loop: busy read models, the server still answering
        for (; writing; await setImmediate())
          await g.createProject(
            { project_id: `busy-${n}`, name: `Busy ${n}` },
            { principal: SYSTEM, idempotencyKey: `busy-${n++}` },
          );
      })();
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const cookie = await web.signInAs();
          const page = await (await getPage(web, '/', cookie)).text();
          const out = await postForm(web, '/signout', cookie, { csrf: csrfOf(page) });
          assert.equal(out.status, 303);
          assert.equal((await getPage(web, '/', cookie)).status, 401, `round ${round}`);
        }
      } finally {
        writing = false;
        await writer;
      }
      assert.ok(n > 0, 'writes ran beside the sign-outs');
    }));
});
