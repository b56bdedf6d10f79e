import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { withDataDir } from '../cli/cli-harness.js';
import { root, startServe } from './harness.js';

/** An MCP request with no session, as the banner's curl line and a host's first probe send. */
const list = (url: string, token?: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });

/**
 * The command the banner prints in step 1, run as a person pastes it. Run without blocking:
 * a synchronous spawn stops this process's event loop for as long as the command takes (seconds
 * on a loaded machine), so fetch cannot see the server close an idle keep-alive connection and
 * sends the next request down it ("other side closed").
 */
const tokenFrom = async (banner: string): Promise<string> => {
  const command = /export INTENTLOG_TOKEN=\$\((.+)\)\n/.exec(banner)?.[1];
  assert.ok(command, 'the banner prints a token command');
  const { stdout } = await promisify(execFile)('sh', ['-c', command], { cwd: root });
  return stdout.trim();
};

/** The URLs the banner names: /mcp and each surface's own. */
const urlsOf = (banner: string, url: string): string[] => [
  url,
  ...[...banner.matchAll(/^ {3}([\w-]+): claude mcp add --transport http \S+ (\S+) /gm)].map(
    (m) => m[2]!,
  ),
];

for (const requireAuth of [false, true])
  describe(`the serve banner tells the truth (${requireAuth ? '--require-auth' : 'default'})`, () => {
    it('what it says needs a token does, on every URL it names; its token works on all', () =>
      withDataDir(async (dir) => {
        const serving = await startServe(dir, requireAuth ? ['--require-auth'] : []);
        try {
          const { banner } = serving;
          const open = /initialize and the lists are open/.test(banner);
          const closed = /every request needs one or a sign-in, initialize and the lists too/.test(
            banner,
          );
          assert.equal(open, !requireAuth, banner);
          assert.equal(closed, requireAuth, banner);
          const urls = urlsOf(banner, serving.url);
          assert.ok(urls.includes(`${serving.url}/storymap`), urls.join(' '));
          const metadata = new Set<string>();
          for (const url of urls) {
            const answer = await list(url);
            assert.equal(answer.status, open ? 200 : 401, url);
            if (closed) {
              const challenge = answer.headers.get('www-authenticate') ?? '';
              const found = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
              assert.ok(found, `${url}: ${challenge}`);
              // "one sign-in per URL": each URL is a protected resource of its own
              const resource = (await (await fetch(found)).json()) as { resource: string };
              assert.equal(resource.resource, url);
              metadata.add(found);
            }
          }
          if (closed) assert.equal(metadata.size, urls.length);
          const token = await tokenFrom(banner);
          for (const url of urls) assert.equal((await list(url, token)).status, 200, url);
        } finally {
          await serving.stop();
        }
      }));
  });
