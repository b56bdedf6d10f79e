import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { storymap } from '../../src/app/storymap/index.js';
import { getBuildOrder } from '../../src/app/storymap/queries.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { connect, withApp } from '../mcp/harness.js';
import { seedProject } from './local-fixture.js';
import { callOf, ok } from './session.js';

type Listed = { id: string; key: string; title: string; build_sequence: number | null };

/**
 * get_build_order's answer (the listing and its text block) is made once per log
 * head and shared by the reads at that head. These check that a write is in the very next
 * answer, in every part of it, and that reads at one head agree.
 */
describe('get_build_order, made once per log head', () => {
  it('shows a write in the next call, in the order and the text block', () =>
    withApp(async (app) => {
      const client = await connect(app, resolveSurfaces(surfacesOf(modules), 'storymap'));
      const call = callOf(client);
      const project_id = await seedProject(call);
      const read = async () => {
        const answer = await client.callTool({
          name: 'get_build_order',
          arguments: { project_id },
        });
        const text = (answer.content as { type: string; text: string }[])[0]!.text;
        const result = (answer.structuredContent as { result: Record<string, unknown> }).result;
        return {
          order: result.order as Listed[],
          unsequenced: result.unsequenced as Listed[],
          card: result.card as { kind: string; project_id: string },
          generated_at: result.generated_at as string,
          text,
        };
      };

      const first = await read();
      const again = await read();
      assert.deepEqual(again.order, first.order, 'reads at one head agree');
      assert.deepEqual(again.card, first.card);
      assert.equal(
        again.text.slice(again.text.indexOf('\n', again.text.indexOf('generated_at'))),
        first.text.slice(first.text.indexOf('\n', first.text.indexOf('generated_at'))),
      );
      assert.ok(again.text.includes(`generated_at ${again.generated_at}`), 'the time is per call');

      // the seed cancelled PB-3: restored, it is listed unsequenced at once
      assert.deepEqual(first.unsequenced, []);
      await ok(call, 'uncancel_story', { project_id, story_id: 'PB-3' });
      const restored = await read();
      assert.deepEqual(
        restored.unsequenced.map((s) => s.key),
        ['PB-3'],
      );
      assert.match(restored.text, /^1 story has no build sequence yet/m);

      // a rename and a new sequence: the next call shows both, everywhere
      const arrange = first.order.find((s) => s.key === 'PB-2')!;
      const order = restored.unsequenced[0]!;
      await ok(call, 'update_stories', {
        project_id,
        stories: [
          { id: arrange.id, title: 'Arrange pages by date' },
          { id: order.id, build_sequence: 3 },
        ],
      });
      const after = await read();
      assert.deepEqual(
        after.order.map((s) => [s.key, s.title]),
        [
          ['PB-1', 'Upload photos'],
          ['PB-2', 'Arrange pages by date'],
          ['PB-3', 'Order the book'],
        ],
      );
      assert.deepEqual(after.unsequenced, []);
      assert.deepEqual(after.card, { kind: 'build_order', project_id });
      assert.match(after.text, /^2\tPB-2\tArrange pages by date\ttodo\tPB-1$/m);
      assert.match(after.text, /^Every live story is sequenced\.$/m);
      assert.doesNotMatch(after.text, /^unsequenced \(1/m);

      // a write on another stream of the project (a note) moves the head: still a right answer
      await ok(call, 'add_note', { project_id, story_id: 'PB-1', note: 'S3 bucket named' });
      assert.deepEqual((await read()).order, after.order);
      await client.close();
    }));

  it('hands every reader a frozen listing: no caller can change what the next one reads', () =>
    withApp(async (app) => {
      const client = await connect(app, resolveSurfaces(surfacesOf(modules), 'storymap'));
      const project_id = await seedProject(callOf(client));
      const answer = await getBuildOrder(app, storymap(app).reads, project_id, SYSTEM);
      assert.ok(Object.isFrozen(answer.order) && Object.isFrozen(answer.order[0]));
      assert.ok(Object.isFrozen(answer.unsequenced));
      assert.throws(() => (answer.order as unknown as unknown[]).pop(), TypeError);
      const next = await getBuildOrder(app, storymap(app).reads, project_id, SYSTEM);
      assert.equal(next.order, answer.order, 'the same listing at the same head');
      await client.close();
    }));
});
