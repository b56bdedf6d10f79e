import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, it } from 'node:test';
import { root } from '../e2e/harness.js';
import { intentlogArgs } from '../support/intentlog-bin.js';

/**
 * HAI-MCP's own smoke script (its scripts/stdio_smoke.py), run as written against
 * `intentlog mcp --surface missions`. The script is HAI-MCP's code and is not in this
 * repository: point HAI_MCP_SMOKE at a copy of it. It needs python3 with the `mcp` package
 * (HAI_MCP_PYTHON names another interpreter). It starts its server as `uv run --directory
 * <its repo> hai-mcp`; a `uv` placed first on PATH for this run starts intentlog instead.
 * Without the script or the package the test is skipped, saying why.
 */

const script = process.env.HAI_MCP_SMOKE ?? '';
const python = process.env.HAI_MCP_PYTHON || 'python3';

const why = (): string | undefined => {
  if (!script) return 'HAI_MCP_SMOKE is not set (the path of HAI-MCP’s scripts/stdio_smoke.py)';
  if (!existsSync(script)) return `HAI_MCP_SMOKE=${script} does not exist`;
  const probe = spawnSync(python, ['-c', 'import mcp.client.stdio'], { encoding: 'utf8' });
  if (probe.error) return `${python} is not installed`;
  if (probe.status !== 0) return `${python} has no \`mcp\` package (pip install mcp)`;
  return undefined;
};

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe('HAI-MCP’s stdio_smoke.py against intentlog', () => {
  const skip = why();
  it(
    'passes as written: 27 tools, every step ok, the owner code in C-*.txt',
    { skip },
    async () => {
      const base = await mkdtemp(join(tmpdir(), 'intentlog-hai-smoke-'));
      try {
        const bin = join(base, 'bin');
        await mkdir(bin);
        const serve = [process.execPath, ...intentlogArgs(['mcp', '--surface', 'missions'])];
        await writeFile(join(bin, 'uv'), `#!/bin/sh\nexec ${serve.map(quote).join(' ')}\n`);
        await chmod(join(bin, 'uv'), 0o755);
        const home = join(base, 'hai-home');
        const owner = join(base, 'hai-home-owner');
        const artifacts = join(base, 'artifacts');
        const run = spawnSync(
          python,
          [script, '--hai-home', home, '--owner-home', owner, '--artifact-dir', artifacts],
          {
            cwd: root,
            encoding: 'utf8',
            timeout: 120_000,
            env: {
              ...process.env,
              PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
              INTENTLOG_HOME: '',
              INTENTLOG_OWNER_DIR: '',
            },
          },
        );
        const payload = JSON.parse(await readFile(join(artifacts, 'latest.json'), 'utf8')) as {
          ok: boolean;
          steps: { step: string; ok: boolean; tool_count?: number; missing?: string[] }[];
        };
        assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}\n${JSON.stringify(payload)}`);
        assert.equal(payload.ok, true);
        assert.deepEqual(
          payload.steps.filter((s) => !s.ok).map((s) => s.step),
          [],
        );
        const tools = payload.steps.find((s) => s.step === 'list_tools')!;
        assert.deepEqual([tools.tool_count, tools.missing], [27, []]);
        assert.ok(payload.steps.some((s) => s.step === 'hai_close_mission_completed'));
        const codes = (await readdir(owner)).filter((f) => /^C-.*\.txt$/.test(f));
        assert.equal(codes.length, 1);
      } finally {
        await rm(base, { recursive: true, force: true });
      }
    },
  );
});
