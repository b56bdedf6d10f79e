import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { connectInfo } from '../../src/mcp/connect-info.js';

const info = {
  url: 'http://127.0.0.1:7411/mcp',
  version: '1.2.3',
  surfaces: 'governance:all,system:all',
  dataDir: '/data/my ledger',
  cli: ['node', '/opt/intent log/dist/cli/main.js'],
  dataArgs: ['--data-dir', '/data/my ledger'],
  stateful: false,
  requireAuth: false,
};

/** The JSON block that follows a heading line, up to the next unindented-brace line. */
const jsonAfter = (text: string, heading: string): unknown => {
  const start = text.indexOf(heading) + heading.length;
  const rest = text.slice(start);
  const end = rest.indexOf('\n     }\n') + '\n     }'.length;
  return JSON.parse(rest.slice(0, end));
};

describe('the connection banner', () => {
  const text = connectInfo(info);

  it('gives .mcp.json blocks that parse, for HTTP and for stdio', () => {
    assert.deepEqual(jsonAfter(text, '.mcp.json (HTTP):'), {
      mcpServers: {
        intentlog: {
          type: 'http',
          url: info.url,
          headers: { Authorization: 'Bearer ${INTENTLOG_TOKEN}' },
        },
      },
    });
    assert.deepEqual(jsonAfter(text, '.mcp.json (stdio):'), {
      mcpServers: {
        intentlog: {
          type: 'stdio',
          command: 'node',
          args: ['/opt/intent log/dist/cli/main.js', 'mcp', '--data-dir', '/data/my ledger'],
        },
      },
    });
  });

  it('quotes paths for the shell and names the same data in every command', () => {
    assert.match(
      text,
      /INTENTLOG_TOKEN=\$\(node '\/opt\/intent log\/dist\/cli\/main\.js' token create --system --data-dir '\/data\/my ledger'\)/,
    );
    assert.match(
      text,
      /claude mcp add intentlog -- node '\/opt\/intent log\/dist\/cli\/main\.js' mcp --data-dir '\/data\/my ledger'/,
    );
    assert.match(
      text,
      /args = \["\/opt\/intent log\/dist\/cli\/main\.js", "mcp", "--data-dir", "\/data\/my ledger"\]/,
    );
    assert.match(
      text,
      /codex mcp add intentlog --url http:\/\/127\.0\.0\.1:7411\/mcp --bearer-token-env-var INTENTLOG_TOKEN/,
    );
  });

  it('prints the intent surface’s plugin and Codex snippet when intent is served', () => {
    assert.ok(!text.includes('intentlog-intent'), 'not served: not printed');
    const served = connectInfo({
      ...info,
      mounted: ['governance', 'intent'],
      checkout: '/opt/intent log',
    });
    assert.match(
      served,
      /claude plugin marketplace add '\/opt\/intent log' && claude plugin install intentlog-intent@intentlog\n/,
    );
    assert.match(served, /export PATH='\/opt\/intent log\/node_modules\/\.bin':"\$PATH"/);
    const toml = served.slice(served.indexOf('[mcp_servers.intentlog-intent]'));
    assert.match(
      toml,
      /^\[mcp_servers\.intentlog-intent\]\n\s+command = "node"\n\s+args = \["\/opt\/intent log\/dist\/cli\/main\.js", "mcp", "--surface", "intent", "--data-dir", "\/data\/my ledger"\]\n/,
    );
  });

  it('says what needs a token as serve was started, and how to sign in once per URL', () => {
    const open = connectInfo({ ...info, mounted: ['governance', 'storymap'] });
    const closed = connectInfo({ ...info, mounted: ['governance', 'storymap'], requireAuth: true });
    assert.match(open, /tools\/call needs one; initialize and the lists are open/);
    assert.doesNotMatch(open, /--require-auth/);
    assert.match(closed, /every request needs one or a sign-in, initialize and the lists too/);
    assert.doesNotMatch(closed, /lists are open/);
    for (const banner of [open, closed]) {
      assert.match(banner, /claude mcp login intentlog/);
      assert.match(
        banner,
        /codex mcp add intentlog --url http:\/\/127\.0\.0\.1:7411\/mcp {3}\(it signs in/,
      );
      assert.match(banner, /codex mcp login intentlog/);
      assert.match(banner, /once per URL/);
      assert.match(banner, /a token works on all, a sign-in is made once per URL/);
      assert.match(banner, /Pending approval/);
      assert.match(banner, /"enabledMcpjsonServers": \["intentlog"\]/);
    }
  });
});
