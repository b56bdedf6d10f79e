import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { intentlogArgs } from '../support/intentlog-bin.js';
import { cli, cliIn, lines, seed, watchStdout, withAppIn, withDataDir } from './cli-harness.js';

type Envelope = Record<string, unknown> & { cursor: number; event_type: string };

// exactly what sync_since returns (governance.md), no more, no less
const ENVELOPE_FIELDS = [
  'actor_id',
  'actor_role',
  'aggregate_id',
  'aggregate_type',
  'causation_event_id',
  'correlation_id',
  'created_at',
  'cursor',
  'event_id',
  'event_type',
  'payload',
  'project_id',
];

describe('intentlog log', () => {
  it('--json prints one sync_since envelope per line, in order', async () => {
    await withDataDir(async (dir) => {
      const head = await seed(dir);
      const result = await cliIn(dir, ['log', '--json']);
      assert.equal(result.code, 0, result.stderr);
      const events = lines(result.stdout) as Envelope[];
      assert.equal(events.length, head);
      for (const e of events) assert.deepEqual(Object.keys(e).sort(), ENVELOPE_FIELDS);
      assert.equal(events[0]!.event_type, 'project.created');
    });
  });

  it('--project and --since select one project after a cursor', async () => {
    await withDataDir(async (dir) => {
      await seed(dir);
      const all = lines((await cliIn(dir, ['log', '--json', '--project', 'alpha'])).stdout);
      const alpha = all as Envelope[];
      assert.deepEqual(
        alpha.map((e) => [e.project_id, e.cursor]),
        [
          ['alpha', 1],
          ['alpha', 2],
          ['alpha', 3],
        ],
      );
      const since = await cliIn(dir, ['log', '--json', '--project', 'alpha', '--since', '2']);
      assert.deepEqual(
        (lines(since.stdout) as Envelope[]).map((e) => e.event_type),
        ['actor.registered'],
      );
    });
  });

  it('without --json prints one readable line per event', async () => {
    await withDataDir(async (dir) => {
      const head = await seed(dir);
      const result = await cliIn(dir, ['log']);
      const text = result.stdout.trimEnd().split('\n');
      assert.equal(text.length, head);
      assert.match(
        text[0]!,
        /^1\t\S+Z\talpha#1\tproject\.created\tproject\/alpha\tsystem\(SYSTEM\)\t\{/,
      );
    });
  });

  it('--follow prints history and then events as they are committed', async () => {
    await withDataDir(async (dir) => {
      await seed(dir);
      const child = spawn(
        process.execPath,
        intentlogArgs(['log', '--follow', '--json', '--project', 'beta', '--data-dir', dir]),
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const stdout = watchStdout(child);
      const seen = (n: number) => stdout.until((text) => lines(text).length >= n);
      await seen(2); // beta's created + root bound
      await withAppIn(dir, (app) =>
        app.projects.bindRoot(
          { project_id: 'beta', root_hash: 'r2', device: 'desktop' },
          { principal: { kind: 'system' } },
        ),
      );
      await seen(3);
      child.kill('SIGINT');
      await new Promise((resolve) => child.on('close', resolve));
      const events = lines(stdout.text()) as Envelope[];
      assert.deepEqual(
        events.map((e) => e.cursor),
        [1, 2, 3],
      );
      assert.equal(events[2]!.event_type, 'root.bound');
    });
  });
});

describe('intentlog export', () => {
  it("writes one project's events as NDJSON envelopes", async () => {
    await withDataDir(async (dir) => {
      await seed(dir);
      const result = await cliIn(dir, ['export', '--project', 'alpha']);
      assert.equal(result.code, 0, result.stderr);
      const events = lines(result.stdout) as Envelope[];
      assert.deepEqual(
        events.map((e) => [e.cursor, e.event_type]),
        [
          [1, 'project.created'],
          [2, 'actor.registered'],
          [3, 'actor.registered'],
        ],
      );
      for (const e of events) assert.deepEqual(Object.keys(e).sort(), ENVELOPE_FIELDS);
      assert.match(result.stderr, /exported 3 events of alpha/);
    });
  });

  it('requires --project', async () => {
    const result = await cli(['export']);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /--project/);
  });
});

describe('intentlog token', () => {
  it('create prints only the token; list shows it; revoke revokes it', async () => {
    await withDataDir(async (dir) => {
      const created = await cliIn(dir, ['token', 'create', '--actor', 'carol', '--label', 'ci']);
      assert.equal(created.code, 0, created.stderr);
      assert.match(created.stdout, /^il_[A-Za-z0-9_-]{43}\n$/);
      const token = created.stdout.trim();
      const tokenId = /issued (tok_\S+)/.exec(created.stderr)?.[1];
      assert.ok(tokenId, created.stderr);
      await withAppIn(dir, async (app) =>
        assert.deepEqual(await app.tokens.resolve(token), { kind: 'actor', actor_id: 'carol' }),
      );

      const listed = lines((await cliIn(dir, ['token', 'list', '--json'])).stdout) as Record<
        string,
        unknown
      >[];
      assert.equal(listed.length, 1);
      assert.equal(listed[0]!.token_id, tokenId);
      assert.equal(listed[0]!.label, 'ci');
      assert.equal(listed[0]!.revoked_at, null);
      assert.equal(listed[0]!.token_hash, undefined, 'the list never shows hashes');

      const revoked = await cliIn(dir, ['token', 'revoke', tokenId]);
      assert.equal(revoked.code, 0, revoked.stderr);
      const text = (await cliIn(dir, ['token', 'list'])).stdout;
      assert.match(text, new RegExp(`^${tokenId}\tactor carol\trevoked \\S+Z\t`));
      await withAppIn(dir, async (app) => assert.equal(await app.tokens.resolve(token), undefined));
    });
  });

  it('create --system makes a system token', async () => {
    await withDataDir(async (dir) => {
      const created = await cliIn(dir, ['token', 'create', '--system']);
      assert.equal(created.code, 0, created.stderr);
      await withAppIn(dir, async (app) =>
        assert.deepEqual(await app.tokens.resolve(created.stdout.trim()), { kind: 'system' }),
      );
    });
  });

  it('create needs exactly one of --system and --actor', async () => {
    await withDataDir(async (dir) => {
      const neither = await cliIn(dir, ['token', 'create']);
      assert.equal(neither.code, 1);
      assert.equal(neither.stdout, '');
      assert.match(neither.stderr, /--system or --actor/);
      const both = await cliIn(dir, ['token', 'create', '--system', '--actor', 'x']);
      assert.notEqual(both.code, 0);
      assert.match(both.stderr, /cannot be used with/);
    });
  });

  it('revoke of an unknown token fails with not_found', async () => {
    await withDataDir(async (dir) => {
      const result = await cliIn(dir, ['token', 'revoke', 'tok_nope']);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /not_found/);
    });
  });
});

describe('intentlog projections', () => {
  it('status shows every read model caught up with the log', async () => {
    await withDataDir(async (dir) => {
      const head = await seed(dir);
      const result = await cliIn(dir, ['projections', 'status', '--json']);
      assert.equal(result.code, 0, result.stderr);
      const rows = lines(result.stdout) as { name: string; position: number; lag: number }[];
      assert.ok(rows.some((r) => r.name === 'projects'));
      for (const r of rows) assert.deepEqual([r.position, r.lag], [head, 0]);
    });
  });

  it('rebuild rebuilds named or all read models and leaves them equal to before', async () => {
    await withDataDir(async (dir) => {
      await seed(dir);
      const before = await withAppIn(dir, (app) => app.log.models.range({ prefix: '' }));
      const named = await cliIn(dir, ['projections', 'rebuild', 'tokens']);
      assert.equal(named.code, 0, named.stderr);
      assert.match(named.stderr, /rebuilt tokens up to/);
      const all = await cliIn(dir, ['projections', 'rebuild']);
      assert.equal(all.code, 0, all.stderr);
      assert.match(all.stderr, /rebuilding: \d+\/\d+/, 'plain progress when stderr is no TTY');
      const after = await withAppIn(dir, (app) => app.log.models.range({ prefix: '' }));
      assert.deepEqual(after, before);
    });
  });

  it('rebuild of an unknown read model fails naming it', async () => {
    await withDataDir(async (dir) => {
      const result = await cliIn(dir, ['projections', 'rebuild', 'nope']);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /no read model named nope/);
    });
  });
});

describe('intentlog --help', () => {
  it('every command documents itself, with --data-dir and --store on each leaf', async () => {
    const leaves = [
      ['log'],
      ['export'],
      ['projections', 'rebuild'],
      ['projections', 'status'],
      ['audit', 'verify'],
      ['token', 'create'],
      ['token', 'revoke'],
      ['token', 'list'],
    ];
    const results = await Promise.all(leaves.map((l) => cli([...l, '--help'])));
    results.forEach((r, i) => {
      assert.equal(r.code, 0, leaves[i]!.join(' '));
      assert.match(r.stdout, /--data-dir <dir>/);
      assert.match(r.stdout, /--store <store>/);
    });
    const top = await cli(['--help']);
    for (const name of ['log', 'export', 'projections', 'audit', 'token'])
      assert.match(top.stdout, new RegExp(`\\n  ${name}\\b`));
  });
});
