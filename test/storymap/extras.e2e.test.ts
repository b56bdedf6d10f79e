import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { SANDBOX_META } from '../../src/app/project/host-root.js';
import { bindRepoRoot } from '../../src/app/storymap/root.js';
import type { Principal } from '../../src/commands/principal.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { silent, withApp } from '../mcp/harness.js';
import { httpClient, issueToken } from '../mcp/http-harness.js';
import { ok, refused, VISION, type Call, type Envelope } from './session.js';

const fiona: Principal = { kind: 'actor', actor_id: 'fiona' };

/** Calls with the host's sandbox directory in `_meta`, as Codex sends it. */
const callIn =
  (client: Client, dir: string): Call =>
  async (name, args = {}) =>
    (
      await client.callTool({
        name,
        arguments: args,
        _meta: { [SANDBOX_META]: { sandboxCwd: pathToFileURL(dir).href } },
      })
    ).structuredContent as Envelope;

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args]);

describe('hosted extras through a real MCP client over HTTP', () => {
  it('research, analyze_complexity, save/get_design from the bound repository, propose_drift_fix', () =>
    withApp(async (app) => {
      const repo = await realpath(await mkdtemp(join(tmpdir(), 'sm-repo-')));
      await mkdir(join(repo, 'src'));
      await mkdir(join(repo, 'design'));
      await writeFile(join(repo, 'src/upload.ts'), 'export const upload = () => 1;\n');
      await writeFile(join(repo, 'design/upload.html'), '<h1>Upload</h1>\n');
      git(repo, 'init', '-q');
      git(repo, 'add', '.');
      git(repo, 'commit', '-qm', 'first');
      const all = surfacesOf(modules);
      const listening = await serveOverHttp({
        app,
        selection: resolveSurfaces(all, 'storymap'),
        mounted: all,
        log: silent,
        host: '127.0.0.1',
        port: 0,
        stateful: false,
      });
      try {
        const { client } = await httpClient(`${listening.url}/storymap`, {
          token: await issueToken(app, fiona),
        });
        const call = callIn(client, repo);
        const { project_id } = await ok(call, 'create_project', {
          name: 'Photo Book',
          idea: 'Books',
        });
        await ok(call, 'set_vision', { project_id, answers: VISION });
        const made = await ok(call, 'create_stories', {
          project_id,
          stories: [
            {
              title: 'Upload photos',
              i_want: 'to upload photos from my phone',
              acceptance_criteria: [{ text: 'A JPEG upload shows a thumbnail', priority: 'must' }],
            },
            {
              title: 'Pay by card',
              effort: 'L',
              acceptance_criteria: [
                'Stripe checkout charges the card',
                'Refunds work',
                'Login required',
              ],
            },
            { title: 'Share an album' },
          ],
        });
        const [upload, pay] = made.stories as { id: string; key: string }[];
        await ok(call, 'add_note', {
          project_id,
          story_id: 'PB-3',
          note: 'Albums share by link; thumbnails reuse the upload pipeline',
        });
        await ok(call, 'log_decision', {
          project_id,
          title: 'Thumbnails on the server',
          description: 'Generate thumbnails after upload with sharp',
        });

        // research: ranked, over titles, criteria, notes and decisions
        const r = await ok(call, 'research', { project_id, query: 'thumbnail upload' });
        assert.equal(
          r.matches[0].ref,
          'PB-1',
          'the story whose title and criteria match ranks first',
        );
        assert.ok(
          r.matches.some((m: { ref: string }) => m.ref === 'PB-3'),
          'notes are searched',
        );
        assert.ok(
          r.matches.some((m: { kind: string }) => m.kind === 'decision'),
          'decisions are searched',
        );
        assert.match(
          r.text,
          /## Findings[\s\S]*## Recommendations[\s\S]*## Risks[\s\S]*## Next steps/,
        );
        assert.match(r.text, /PB-3 has no acceptance criteria/);
        // a write after the index was built is found by the next question
        await ok(call, 'add_note', {
          project_id,
          story_id: 'PB-2',
          note: 'Use idempotency keys for webhooks',
        });
        const again = await ok(call, 'research', { project_id, query: 'idempotency' });
        assert.deepEqual(
          again.matches.map((m: { ref: string }) => m.ref),
          ['PB-2'],
        );
        const none = await ok(call, 'research', { project_id, query: 'kubernetes' });
        assert.equal(none.total_matches, 0);
        assert.match(none.text, /Nothing in this project mentions "kubernetes"/);

        // analyze_complexity: deterministic, explains itself
        const c = await ok(call, 'analyze_complexity', { project_id, story_ids: [pay!.key] });
        const [score] = c.stories;
        assert.ok(score.score >= 6 && score.score <= 10, JSON.stringify(score));
        assert.ok(score.reasoning.some((x: string) => /payments/.test(x)));
        assert.ok(score.risks.some((x: string) => /money moves/.test(x)));
        const twice = await ok(call, 'analyze_complexity', { project_id, story_ids: [pay!.key] });
        assert.deepEqual(twice.stories, c.stories, 'the same story scores the same');
        assert.equal((await ok(call, 'analyze_complexity', { project_id })).stories.length, 3);

        // save_design: kinds inferred, the same URL once
        const figma = await ok(call, 'save_design', {
          project_id,
          story_id: 'PB-1',
          url: 'https://www.figma.com/design/abc/Book?node-id=1-23',
        });
        assert.deepEqual([figma.ref.kind, figma.ref.selector], ['figma', '1:23']);
        const dup = await ok(call, 'save_design', {
          project_id,
          story_id: 'PB-1',
          url: 'https://www.figma.com/design/abc/Book?node-id=1-23',
        });
        assert.equal(dup.already_attached, true);
        await refused(
          call,
          'save_design',
          { project_id, story_id: 'PB-1', url: '../etc/passwd' },
          'invalid_argument',
        );
        const repoRef = await ok(call, 'save_design', {
          project_id,
          story_id: 'PB-1',
          url: 'design/upload.html',
        });
        assert.equal(repoRef.ref.kind, 'repo-path');
        assert.equal(repoRef.design_refs_count, 2);
        await refused(call, 'get_design', { project_id, story_id: 'PB-1' }, 'invalid_argument');
        const remote = await ok(call, 'get_design', {
          project_id,
          story_id: 'PB-1',
          ref_id: figma.ref.id,
        });
        assert.equal(remote.fetched, false);
        assert.match(remote.message, /Figma isn't configured/);
        const unbound = await ok(call, 'get_design', {
          project_id,
          story_id: 'PB-1',
          ref_id: repoRef.ref.id,
        });
        assert.match(unbound.message, /no repository is bound/);

        // the founder binds the repository; the sandbox directory names it
        await bindRepoRoot(app, { project_id, dir: repo }, fiona);
        const first = await ok(call, 'get_design', {
          project_id,
          story_id: 'PB-1',
          ref_id: repoRef.ref.id,
        });
        assert.deepEqual(
          [first.content, first.content_type, first.drifted],
          ['<h1>Upload</h1>\n', 'text/html', false],
        );
        await writeFile(join(repo, 'design/upload.html'), '<h1>Upload v2</h1>\n');
        const second = await ok(call, 'get_design', {
          project_id,
          story_id: 'PB-1',
          ref_id: repoRef.ref.id,
        });
        assert.equal(second.drifted, true);
        assert.notEqual(second.content_hash, first.content_hash);

        // propose_drift_fix: from git against implemented_files
        const notBuilt = await ok(call, 'propose_drift_fix', { project_id, story_id: 'PB-1' });
        assert.match(notBuilt.text, /No drift data for PB-1/);
        await ok(call, 'update_stories', {
          project_id,
          stories: [{ id: upload!.id, status: 'done', implemented_files: ['src/upload.ts'] }],
        });
        const clean = await ok(call, 'propose_drift_fix', { project_id, story_id: 'PB-1' });
        assert.match(clean.text, /PB-1 has no drift/);
        await writeFile(
          join(repo, 'src/upload.ts'),
          'export const upload = () => 2;\nexport const more = 3;\n',
        );
        const drifted = await ok(call, 'propose_drift_fix', { project_id, story_id: 'PB-1' });
        assert.deepEqual([drifted.drift, drifted.verdict], [['code_changed'], 'update_spec']);
        assert.match(drifted.text, /src\/upload\.ts \(\+2 −1\)/);
        await ok(call, 'update_criterion', {
          project_id,
          story_id: 'PB-1',
          criterion_id: (await ok(call, 'get_story', { project_id, story_id: 'PB-1' }))
            .acceptance_criteria[0].id,
          text: 'A JPEG or HEIC upload shows a thumbnail',
        });
        const rework = await ok(call, 'propose_drift_fix', { project_id, story_id: 'PB-1' });
        assert.equal(rework.verdict, 'rework');
        assert.match(rework.text, /HEIC/);
        await client.close();
      } finally {
        await listening.close();
        await rm(repo, { recursive: true, force: true });
      }
    }));
});
