import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cliIn, withDataDir } from '../cli/cli-harness.js';
import { startServe } from '../e2e/harness.js';

describe('intentlog open', () => {
  it('prints a link, from another process, that signs in to the running serve', () =>
    withDataDir(async (dir) => {
      const serving = await startServe(dir);
      try {
        const base = serving.url.replace(/\/mcp$/, '');
        const opened = await cliIn(dir, ['open', '--actor', 'olivia', '--url', serving.url]);
        assert.equal(opened.code, 0, opened.stderr);
        const link = opened.stdout.trim();
        assert.match(link, new RegExp(`^${base}/signin\\?code=ilc_[\\w-]{43}$`));
        const signedIn = await fetch(link, { redirect: 'manual' });
        assert.equal(signedIn.status, 303);
        const cookie = /intentlog_session=[^;]+/.exec(signedIn.headers.get('set-cookie') ?? '')![0];
        const home = await fetch(`${base}/`, { headers: { cookie } });
        assert.equal(home.status, 200);
        assert.match(await home.text(), /Signed in as <strong>olivia<\/strong>/);
      } finally {
        await serving.stop();
      }
    }));
});
