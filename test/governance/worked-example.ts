/**
 * Regenerates the worked example of docs/governance.md from a real run: a real `intentlog serve`
 * over a fresh data dir, raw JSON-RPC over HTTP, every request and response as sent and received.
 *
 *   node --import tsx test/governance/worked-example.ts > /tmp/example.md
 */
import type { Principal } from '../../src/commands/principal.js';
import { startServer, withDataDir } from './serve-harness.js';

const actors = { olivia: 'PO', pat: 'PM', ivan: 'IMPLEMENTER', rita: 'REVIEWER' } as const;
type Who = keyof typeof actors | 'system';
const principals = {
  system: { kind: 'system' },
  ...Object.fromEntries(Object.keys(actors).map((a) => [a, { kind: 'actor', actor_id: a }])),
} as Record<Who, Principal>;

const md: string[] = [];

/** JSON as a person reads it: what fits in a line stays on one line. */
const pretty = (value: unknown, indent = ''): string => {
  const flat = JSON.stringify(value);
  if (flat.length + indent.length <= 96 || value === null || typeof value !== 'object') return flat;
  const inner = indent + '  ';
  const items = Array.isArray(value)
    ? value.map((v) => inner + pretty(v, inner))
    : Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pretty(v, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${items.join(',\n')}\n${indent}${close}`;
};
const fence = (lang: string, text: string) => md.push('```' + lang, text, '```', '');

await withDataDir(principals, async (dir, tokens) => {
  const server = await startServer(dir);
  let id = 0;
  let quiet = false;
  const rpc = async (who: Who | null, method: string, params: unknown, full = false) => {
    const body = { jsonrpc: '2.0', id: ++id, method, params };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-03-26',
    };
    if (who) headers.authorization = `Bearer ${tokens[who]}`;
    const response = await fetch(server.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = (text.startsWith('{') ? JSON.parse(text) : undefined) as
      { result?: { structuredContent?: Record<string, unknown>; isError?: boolean } } | undefined;
    if (quiet) return parsed?.result?.structuredContent;
    const auth = who ? `Authorization: Bearer <token of ${who}>\n` : '';
    fence('http', `POST /mcp\n${auth}\n${pretty(body)}`);
    const result = parsed?.result;
    if (!full && result?.structuredContent) {
      const note = result.isError ? ' (isError: true)' : '';
      md.push(`→ HTTP ${response.status}, \`structuredContent\`${note}:`, '');
      fence('json', pretty(result.structuredContent));
    } else {
      const challenge = response.headers.get('www-authenticate');
      md.push(
        `→ HTTP ${response.status}${challenge ? `, WWW-Authenticate: ${challenge}` : ''}:`,
        '',
      );
      fence(parsed ? 'json' : '', parsed ? pretty(parsed) : text);
    }
    return result?.structuredContent;
  };
  const tool = (who: Who, name: string, args: Record<string, unknown>, full = false) =>
    rpc(who, 'tools/call', { name, arguments: args }, full);
  const step = (title: string) => md.push(`#### ${title}`, '');
  const P = { project_id: 'acme' };
  const WP = { ...P, work_package_id: 'WP-001' };

  step('1. The handshake needs no credentials');
  await rpc(null, 'initialize', {
    protocolVersion: '2025-03-26',
    capabilities: {},
    clientInfo: { name: 'example', version: '1' },
  });
  step('2. A call without a token is HTTP 401');
  await rpc(null, 'tools/call', { name: 'get_project', arguments: P });
  step('3. SYSTEM creates the project (the full JSON-RPC response, once)');
  await tool(
    'system',
    'create_project',
    { ...P, name: 'Acme', idempotency_key: 'create-acme' },
    true,
  );
  step('4. SYSTEM appoints the PO; the PO appoints the PM (who registers ivan and rita alike)');
  await tool('system', 'register_actor', {
    ...P,
    actor_id: 'olivia',
    role: 'PO',
    idempotency_key: 'reg-olivia',
  });
  await tool('olivia', 'register_actor', {
    ...P,
    actor_id: 'pat',
    role: 'PM',
    idempotency_key: 'reg-pat',
  });
  quiet = true;
  await tool('pat', 'register_actor', {
    ...P,
    actor_id: 'ivan',
    role: 'IMPLEMENTER',
    idempotency_key: 'reg-ivan',
  });
  await tool('pat', 'register_actor', {
    ...P,
    actor_id: 'rita',
    role: 'REVIEWER',
    idempotency_key: 'reg-rita',
  });
  quiet = false;
  step('5. A PM cannot appoint a PO');
  await tool('pat', 'register_actor', {
    ...P,
    actor_id: 'mallory',
    role: 'PO',
    idempotency_key: 'reg-mallory',
  });
  step('6. The PM issues a work package');
  await tool('pat', 'issue_work_package', {
    ...WP,
    title: 'Add login',
    acceptance_criteria: ['a user can log in with email and password'],
    idempotency_key: 'issue-wp-001',
  });
  step('7. A REVIEWER may not claim; the implementer claims');
  await tool('rita', 'claim_work_package', { ...WP, idempotency_key: 'claim-1' });
  await tool('ivan', 'claim_work_package', { ...WP, idempotency_key: 'claim-1' });
  step('8. Linking a commit needs a hexadecimal object id');
  await tool('ivan', 'link_commit', { ...WP, commit_id: 'HEAD~1', idempotency_key: 'link-1' });
  await tool('ivan', 'link_commit', {
    ...WP,
    commit_id: '9fceb02d0ae598e95dc970b74767f19372d61af8',
    repository: 'https://github.com/acme/app',
    idempotency_key: 'link-2',
  });
  step('9. The claimant submits its result and asks for a review');
  await tool('ivan', 'submit_result', {
    ...WP,
    summary: 'Login form, session cookie, tests',
    idempotency_key: 'result-1',
  });
  await tool('ivan', 'request_review', { ...WP, reviewer_id: 'rita', idempotency_key: 'review-1' });
  step('10. No ACCEPT before an independent approval');
  await tool('olivia', 'close_gate', { ...WP, outcome: 'ACCEPT', idempotency_key: 'gate-early' });
  step("11. The reviewer's pending actions, and the verdict");
  const todo = (await tool('rita', 'list_pending_actions', P)) as {
    result: { actions: { review_id: string }[] };
  };
  await tool('rita', 'submit_review', {
    ...P,
    review_id: todo.result.actions[0]!.review_id,
    verdict: 'APPROVE',
    notes: 'Clear and tested',
    idempotency_key: 'verdict-1',
  });
  step('12. The PO accepts; the same call again replays the stored answer');
  await tool('olivia', 'close_gate', {
    ...WP,
    outcome: 'ACCEPT',
    reason: 'approved',
    idempotency_key: 'gate-1',
  });
  await tool('olivia', 'close_gate', {
    ...WP,
    outcome: 'ACCEPT',
    reason: 'approved',
    idempotency_key: 'gate-1',
  });
  step('13. The same key with other arguments is a conflict');
  await tool('olivia', 'close_gate', { ...WP, outcome: 'REJECT', idempotency_key: 'gate-1' });
  step('14. A baseline of accepted packages');
  await tool('pat', 'baseline_release', {
    ...P,
    baseline_id: 'v1.0',
    work_package_ids: ['WP-001'],
    idempotency_key: 'v1.0',
  });
  step('15. The work package as a read model');
  await tool('rita', 'get_work_package', WP);
  step('16. A consumer syncs from cursor 0, three events a page');
  await tool('rita', 'sync_since', { ...P, cursor: 0, limit: 3 });
  await server.stop();
});

process.stdout.write(md.join('\n'));
