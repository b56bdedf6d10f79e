import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { isDomainError } from '../../src/commands/errors.js';
import { openIntentlog } from '../../src/modules/index.js';

const system = { principal: { kind: 'system' as const } };

describe('a root belongs to one project', () => {
  it('of projects racing to bind one root exactly one wins; after an unbind another may', async () => {
    const app = await openIntentlog({ store: 'memory', dataDir: '/nonexistent' });
    try {
      const ids = ['p1', 'p2', 'p3', 'p4'];
      for (const project_id of ids)
        await app.projects.create({ project_id, name: project_id }, system);
      const raced = await Promise.allSettled(
        ids.map((project_id) =>
          app.projects.bindRoot({ project_id, root_hash: 'h', device: 'laptop' }, system),
        ),
      );
      const won = raced.flatMap((r, i) => (r.status === 'fulfilled' ? [ids[i]!] : []));
      assert.equal(won.length, 1);
      for (const r of raced)
        if (r.status === 'rejected') {
          assert.ok(isDomainError(r.reason));
          assert.equal(r.reason.code, 'conflict');
          assert.equal(r.reason.details.project_id, won[0]);
        }
      // binding again to the holder appends nothing
      const head = await app.log.head();
      await app.projects.bindRoot(
        { project_id: won[0]!, root_hash: 'h', device: 'laptop' },
        system,
      );
      assert.equal(await app.log.head(), head);

      await app.projects.unbindRoot({ project_id: won[0]!, root_hash: 'h' }, system);
      const other = ids.find((id) => id !== won[0])!;
      await app.projects.bindRoot({ project_id: other, root_hash: 'h', device: 'desk' }, system);
      await app.waitFor(await app.log.head(), ['projects']);
      assert.equal(await app.projects.projectOfRoot('h'), other);
    } finally {
      await app.close();
    }
  });
});
