import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { Id, idProblem } from '../../src/commands/ids.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { cliIn, withDataDir } from '../cli/cli-harness.js';
import { connect, withApp } from '../mcp/harness.js';

/** The probe kinds of issue 19: every one of them was accepted somewhere. */
const BAD_IDS = [
  '',
  ' ',
  'a b',
  'x\ny',
  'tab\there',
  'nul\u0000',
  'é',
  'system',
  'SYSTEM',
  'System',
  '@system',
  '__proto__',
  'constructor',
  'prototype',
  '.',
  '..',
  'x'.repeat(129),
];
const GOOD_IDS = ['alice', 'WP-001', 'a.b_c:d/e-f', 'x'.repeat(128), 'systems', 'proto'];

describe('the one id rule', () => {
  it('refuses every probe kind and names why', () => {
    for (const id of BAD_IDS) {
      assert.equal(Id.safeParse(id).success, false, JSON.stringify(id));
      assert.ok(idProblem(id), JSON.stringify(id));
    }
  });

  it('accepts ids that are merely close to a reserved name', () => {
    for (const id of GOOD_IDS) assert.equal(idProblem(id), undefined, id);
  });

  it('`token create --actor` refuses bad ids with invalid_argument and writes nothing', () =>
    withDataDir(async (dir) => {
      for (const actor of ['', 'a b', 'x\ny', 'system', '__proto__']) {
        const r = await cliIn(dir, ['token', 'create', '--actor', actor]);
        assert.equal(r.code, 1, `${JSON.stringify(actor)}: ${r.stderr}`);
        assert.match(r.stderr, /invalid_argument: not an actor id/);
        assert.equal(r.stdout, '');
      }
      const log = await cliIn(dir, ['log', '--json']);
      assert.equal(log.code, 0, log.stderr);
      assert.equal(log.stdout, '', 'no event was written');
    }));

  it('register_actor refuses a reserved actor id over MCP; the log does not move', () =>
    withApp(async (app) => {
      const client = await connect(app, resolveSurfaces(surfacesOf(modules), 'governance'));
      const created = await client.callTool({
        name: 'create_project',
        arguments: { project_id: 'acme', name: 'Acme', idempotency_key: 'c1' },
      });
      assert.equal(created.isError, undefined, JSON.stringify(created.structuredContent));
      const head = await app.log.head();
      for (const actor_id of ['system', 'SYSTEM', '@system', '__proto__', 'a b', '']) {
        const r = await client.callTool({
          name: 'register_actor',
          arguments: { project_id: 'acme', actor_id, role: 'PO', idempotency_key: `r-${actor_id}` },
        });
        assert.equal(r.isError, true, actor_id);
        const error = (r.structuredContent as { error: { code: string } }).error;
        assert.equal(error.code, 'invalid_argument', actor_id);
      }
      assert.equal(await app.log.head(), head);
      await client.close();
    }));
});
