import { strict as assert } from 'node:assert';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { cliIn, withDataDir } from '../cli/cli-harness.js';
import { ALL, CORE, RESOURCES, STANDARD } from '../storymap/local-fixture.js';
import { intentlog } from './harness.js';
import { linkedProject } from './linked-project.js';

/** `intentlog mcp --surface <surface>` started in `cwd`, the way a coding agent starts it. */
const localClient = async (dataDir: string, cwd: string, surface: string) => {
  const run = intentlog(['mcp', '--data-dir', dataDir, '--surface', surface]);
  const transport = new StdioClientTransport({
    ...run,
    cwd,
    env: {
      ...getDefaultEnvironment(),
      INTENTLOG_HOME: '',
      INTENTLOG_STORE: '',
      INTENTLOG_SURFACE: '',
      INTENTLOG_ROOT: '',
    },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'e2e-local', version: '1' });
  await client.connect(transport);
  return client;
};

describe('intentlog mcp --surface storymap-local (stdio)', () => {
  it('serves each mode over the project linked above the working directory', () =>
    withDataDir(async (dir) => {
      const { root } = await linkedProject(dir);
      const modes: [string, string[]][] = [
        ['core', CORE],
        ['standard', STANDARD],
        ['all', ALL],
      ];
      for (const [mode, tools] of modes) {
        // started in a subdirectory: the link is found as git finds its repository
        const client = await localClient(dir, join(root, 'src', 'deep'), `storymap-local:${mode}`);
        const listed = (await client.listTools()).tools.map((t) => t.name);
        assert.deepEqual(listed.sort(), [...tools].sort(), mode);
        const outside = ALL.find((t) => !tools.includes(t));
        if (outside) {
          const refused = await client.callTool({ name: outside, arguments: {} });
          const envelope = refused.structuredContent as { error: { code: string } };
          assert.equal(envelope.error.code, 'mode_required', `${mode}: ${outside}`);
        }
        const { resources } = await client.listResources();
        for (const uri of RESOURCES)
          assert.ok(
            resources.some((r) => r.uri === uri),
            uri,
          );
        const status = await client.readResource({ uri: 'intentlog://project/status' });
        assert.equal(JSON.parse((status.contents[0] as { text: string }).text).total, 2);
        const stop = await client.callTool({
          name: 'add_note',
          arguments: { story_id: 'PB-3', note: 'x' },
        });
        assert.match(
          (stop.content as { text: string }[])[0]!.text,
          /^Development of PB-3 "Order the book" was cancelled/,
        );
        const note = await client.callTool({
          name: 'add_note',
          arguments: { story_id: 'PB-1', note: `from ${mode}` },
        });
        assert.equal((note.structuredContent as { ok: boolean }).ok, true, mode);
        await client.close();
      }
    }));

  it('refuses every call plainly in a directory no project is linked to', () =>
    withDataDir(async (dir) => {
      await mkdir(dir, { recursive: true });
      const client = await localClient(dir, dir, 'storymap-local:core');
      const answer = await client.callTool({ name: 'get_status', arguments: {} });
      const envelope = answer.structuredContent as { error: { code: string; message: string } };
      assert.equal(envelope.error.code, 'not_linked');
      assert.match(envelope.error.message, /intentlog storymap link <project_id>/);
      await client.close();
      const link = await cliIn(dir, ['storymap', 'link', 'no-such-project', '--root', dir]);
      assert.equal(link.code, 1);
      assert.match(link.stderr, /Project not found or access denied/);
    }));
});
