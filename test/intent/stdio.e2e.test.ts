import { strict as assert } from 'node:assert';
import { realpath } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { userSource, withDir } from './harness.js';
import { stdio } from './stdio-client.js';

const SANDBOX = 'codex/sandbox-state-meta';

describe('intent over stdio, end to end', () => {
  it('finds the project from the one client root, and refuses without one', () =>
    withDir((data) =>
      withDir(async (project) => {
        const withRoot = await stdio(data, [project]);
        try {
          const caps = withRoot.client.getServerCapabilities();
          assert.ok(caps?.experimental?.[SANDBOX], 'advertises codex/sandbox-state-meta');
          const started = await withRoot.call('intent_start_task', {
            claims: [
              {
                epistemic_status: 'explicit',
                basis: 'direct_statement',
                statement: 'Never break the CLI flags',
                source_ref: userSource,
              },
            ],
          });
          assert.equal(started.ok, true, JSON.stringify(started.error));
          const snap = await withRoot.call('intent_get_snapshot', { task_id: started.task_id });
          assert.equal(snap.task_id, started.task_id);
          assert.equal(snap.project_id, started.project_id);
          const status = await withRoot.call('intent_status', {});
          assert.equal((status.result as { project_known: boolean }).project_known, true);

          const skill = await withRoot.client.readResource({ uri: 'intent-loop://skill/intent' });
          assert.match(JSON.stringify(skill.contents[0]), /\/intent forget/);
        } finally {
          await withRoot.client.close();
        }
        const noRoots = await stdio(data, null);
        try {
          const refused = await noRoots.call('intent_status', {});
          assert.equal(refused.error?.code, 'PROJECT_ROOT_REQUIRED');
          const relative = await noRoots.call('intent_status', { project_root: 'rel/path' });
          assert.equal(relative.error?.code, 'PROJECT_ROOT_INVALID');
          const unc = await noRoots.call('intent_status', { project_root: '\\\\server\\share' });
          assert.equal(unc.error?.code, 'PROJECT_ROOT_INVALID');
          const explicit = await noRoots.call('intent_status', { project_root: project });
          assert.equal(explicit.ok, true);
        } finally {
          await noRoots.client.close();
        }
      }),
    ));

  it('uses Codex sandbox metadata first; malformed and mismatched roots fail before state', () =>
    withDir((data) =>
      withDir(async (project) =>
        withDir(async (other) => {
          const codex = await stdio(data, [other]);
          const meta = { [SANDBOX]: { sandboxCwd: pathToFileURL(project).href } };
          try {
            const started = await codex.call('intent_start_task', {}, meta);
            assert.equal(started.ok, true, JSON.stringify(started.error));
            const same = await codex.call(
              'intent_status',
              { project_root: await realpath(project) },
              meta,
            );
            assert.equal(same.project_id, started.project_id);
            const mismatch = await codex.call('intent_status', { project_root: other }, meta);
            assert.equal(mismatch.error?.code, 'PROJECT_ROOT_MISMATCH');
            for (const bad of [
              'not an object',
              { sandboxCwd: 42 },
              { sandboxCwd: 'https://example.com/x' },
              { sandboxCwd: 'file://remote-host/share' },
              {},
            ]) {
              const answer = await codex.call('intent_status', {}, { [SANDBOX]: bad });
              assert.equal(
                answer.error?.code,
                'PROJECT_ROOT_METADATA_INVALID',
                JSON.stringify(bad),
              );
            }
            // the client root alone names a different project
            const byRoot = await codex.call('intent_start_task', {});
            assert.notEqual(byRoot.project_id, started.project_id);
          } finally {
            await codex.client.close();
          }
        }),
      ),
    ));
});

describe('intent across processes', () => {
  it('two MCP processes with the same request_id record the claim once', () =>
    withDir((data) =>
      withDir(async (project) => {
        const a = await stdio(data, [project]);
        const b = await stdio(data, [project]);
        try {
          const started = await a.call('intent_start_task', {});
          const args = {
            task_id: started.task_id,
            request_id: 'same-request',
            statement: 'Release only from main',
            basis: 'direct_statement',
            source_ref: userSource,
          };
          const [one, two] = await Promise.all([
            a.call('intent_add_explicit', args),
            b.call('intent_add_explicit', args),
          ]);
          assert.equal(one.ok && two.ok, true, JSON.stringify([one.error, two.error]));
          assert.equal(
            (one.result as { claim_id: string }).claim_id,
            (two.result as { claim_id: string }).claim_id,
          );
          const snap = await b.call('intent_get_snapshot', { task_id: started.task_id });
          assert.equal(
            (snap.result as { snapshot: { active_claims: number } }).snapshot.active_claims,
            1,
          );
        } finally {
          await a.client.close();
          await b.client.close();
        }
      }),
    ));
});
