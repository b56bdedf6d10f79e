import { strict as assert } from 'node:assert';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { App } from '../../src/app/app.js';
import { auditVerify } from '../../src/app/audit.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, openIntentlog, surfacesOf } from '../../src/modules/index.js';
import { connect } from '../mcp/harness.js';
import { fill, mountSmallFs } from './small-fs.js';

type Answer = {
  ok: boolean;
  error?: { code: string; message: string; details: Record<string, unknown> };
};

const probe = await mountSmallFs();
const skip = typeof probe === 'string' ? probe : false;
if (skip) console.log(`SKIPPED disk-full test: ${skip}`);

describe('a full disk under a running server (issue 19, defect 2)', () => {
  it(
    'answers unavailable naming ENOSPC, keeps serving, resumes when space returns, loses nothing',
    { skip },
    async () => {
      const fs = probe as Exclude<typeof probe, string>;
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      const dataDir = join(fs.dir, 'data');
      let app: App | undefined = await openIntentlog({ dataDir });
      try {
        const client = await connect(app, resolveSurfaces(surfacesOf(modules), 'governance'));
        const call = async (name: string, args: Record<string, unknown>): Promise<Answer> =>
          (await client.callTool({ name, arguments: args })).structuredContent as Answer;
        const register = (n: number) =>
          call('register_actor', {
            project_id: 'acme',
            actor_id: `actor-${n}`,
            role: 'IMPLEMENTER',
            display_name: 'x'.repeat(200),
            idempotency_key: `r${n}`,
          });
        assert.equal(
          (await call('create_project', { project_id: 'acme', name: 'Acme', idempotency_key: 'c' }))
            .ok,
          true,
        );
        const acknowledged: number[] = [];
        for (let n = 0; n < 5; n++) if ((await register(n)).ok) acknowledged.push(n);

        const filler = await fill(fs.dir);
        let refused: Answer | undefined;
        for (let n = 5; n < 60 && !refused; n++) {
          const answer = await register(n);
          if (answer.ok) acknowledged.push(n);
          else refused = answer;
        }
        assert.ok(refused, 'no write failed on a full disk');
        assert.equal(refused.error!.code, 'unavailable', JSON.stringify(refused.error));
        assert.equal(refused.error!.details.cause, 'ENOSPC');
        assert.match(refused.error!.message, /no space left/);

        await rm(filler);
        let resumed: Answer | undefined;
        for (let attempt = 0; attempt < 100 && !resumed?.ok; attempt++) {
          resumed = await register(100);
          if (!resumed.ok) await sleep(100);
        }
        assert.equal(resumed?.ok, true, `writes did not resume: ${JSON.stringify(resumed)}`);
        acknowledged.push(100);

        const project = (await call('get_project', { project_id: 'acme' })) as Answer & {
          result: { roster: { actor_id: string }[] };
        };
        assert.equal(project.ok, true, JSON.stringify(project));
        const members = new Set(project.result.roster.map((m) => m.actor_id));
        for (const n of acknowledged) assert.ok(members.has(`actor-${n}`), `actor-${n} lost`);
        await client.close();

        await app.close();
        app = await openIntentlog({ dataDir });
        const report = await auditVerify({
          log: app.log,
          catalog: app.catalog,
          projectors: app.projectors,
          waitFor: app.waitFor,
        });
        assert.equal(report.ok, true, JSON.stringify(report.finding));
        assert.deepEqual(rejections, [], 'an unhandled rejection');
      } finally {
        process.off('unhandledRejection', onRejection);
        await app?.close().catch(() => {});
        await fs.unmount();
      }
    },
  );
});
