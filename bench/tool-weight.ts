import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * What a model pays to see a server's tools: hosts without deferred tool loading put every
 * tool's name, description and input schema into every prompt (issue 42). This lists the tools
 * of `intentlog mcp --surface <spec>` over stdio, as a host does, and weighs them.
 *
 * `node --import tsx bench/tool-weight.ts [--read-only] [dist/cli/main.js]`
 * prints one line per surface and set; `--markdown` prints the table RESULTS.md holds.
 */

/** A tool as tools/list shows it, the parts a host puts into the prompt. */
export type ListedTool = {
  name: string;
  description?: string;
  inputSchema: unknown;
  annotations?: { readOnlyHint?: boolean };
};

/** name + description + inputSchema as JSON, in UTF-8 bytes. */
export const modelBytes = (tool: ListedTool): number =>
  Buffer.byteLength(tool.name) +
  Buffer.byteLength(tool.description ?? '') +
  Buffer.byteLength(JSON.stringify(tool.inputSchema));

/** Tokens, roughly: ~4 bytes a token for English and JSON (the 30.2 KB ≈ 7,700). */
export const approxTokens = (bytes: number): number => Math.round(bytes / 4);

const request = (id: number, method: string, params: unknown = {}) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;

/**
 * Starts `node <cli…> mcp --surface <spec> …` on a memory store and answers its tools/list;
 * `cli` is the bin (`[dist/cli/main.js]`) or how to run it (`['--import', 'tsx', main.ts]`).
 */
export const listTools = async (
  cli: readonly string[],
  spec: string,
  extra: readonly string[] = [],
): Promise<ListedTool[]> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tool-weight-'));
  try {
    return await new Promise<ListedTool[]>((done, fail) => {
      const args = [...cli, 'mcp', '--data-dir', dataDir, '--store', 'memory', '--surface', spec];
      const child = spawn(process.execPath, [...args, ...extra], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, INTENTLOG_SURFACE: '', INTENTLOG_ACTOR: '', INTENTLOG_HOME: '' },
      });
      let out = '';
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        for (const line of out.split('\n')) {
          if (!line.includes('"id":2')) continue;
          const message = JSON.parse(line) as { result?: { tools: ListedTool[] } };
          child.stdin.end();
          child.kill();
          if (!message.result) fail(new Error(`${spec}: tools/list failed: ${line}`));
          else done(message.result.tools);
          return;
        }
      });
      child.on('exit', (code) => fail(new Error(`${spec}: mcp exited ${code}: ${err}`)));
      child.stdin.write(
        request(1, 'initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'tool-weight', version: '1' },
        }) +
          `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n` +
          request(2, 'tools/list'),
      );
    });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
};

export type Weight = { spec: string; tools: number; bytes: number; perTool: number };

export const weigh = (spec: string, tools: readonly ListedTool[]): Weight => {
  const bytes = tools.reduce((sum, t) => sum + modelBytes(t), 0);
  return { spec, tools: tools.length, bytes, perTool: Math.round(bytes / tools.length) };
};

type TableSurface = { name: string; tiers: string[] };

/** Every surface at every set, from the table the build writes beside the bin. */
export const everySpec = async (main: string): Promise<string[]> => {
  const table = JSON.parse(
    await readFile(join(main, '../../mcp/early-initialize.json'), 'utf8'),
  ) as { surfaces: TableSurface[] };
  return table.surfaces.flatMap((s) => s.tiers.map((tier) => `${s.name}:${tier}`));
};

const main = async () => {
  const argv = process.argv.slice(2);
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const bin = resolve(argv.find((a) => !a.startsWith('--')) ?? 'dist/cli/main.js');
  const extra = flags.has('--read-only') ? ['--read-only'] : [];
  const rows: Weight[] = [];
  for (const spec of await everySpec(bin))
    rows.push(weigh(spec, await listTools([bin], spec, extra)));
  if (flags.has('--markdown')) {
    console.log('| surface:set | tools | bytes | ≈ tokens | bytes a tool |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const r of rows)
      console.log(
        `| ${r.spec} | ${r.tools} | ${r.bytes.toLocaleString('en')} | ${approxTokens(r.bytes).toLocaleString('en')} | ${r.perTool.toLocaleString('en')} |`,
      );
    return;
  }
  for (const r of rows)
    console.log(
      `${r.spec.padEnd(22)} ${String(r.tools).padStart(3)} tools ${String(r.bytes).padStart(7)} B ≈${String(approxTokens(r.bytes)).padStart(6)} tok ${String(r.perTool).padStart(5)} B/tool`,
    );
};

// run as a script, not when a test imports the functions above
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href)
  await main();
