import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/*
 * `npm run lint` keeps the import rules (.dependency-cruiser.cjs, docs/architecture.md): here
 * its boundary step runs once on a copy of src/ into which one import across each rule is
 * written (one run: a whole cruise takes a while on a busy machine).
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Each file written into the copy, and the rule that must name it. */
const CROSSINGS = [
  {
    rule: 'context-imports-own-context',
    file: 'src/mcp/storymap/cross.ts',
    text: "export { intentOf } from '../../app/intent/index.js';\n",
  },
  {
    rule: 'kernel-imports-no-context',
    file: 'src/app/cross.ts',
    text: "export { storymap } from './storymap/index.js';\n",
  },
  {
    // the project context is shared, and part of the kernel for this rule
    rule: 'kernel-imports-no-context',
    file: 'src/app/project/cross.ts',
    text: "export { missionsKernel } from '../missions/module.js';\n",
  },
  {
    rule: 'layer-events',
    file: 'src/events/up.ts',
    text: "export type { App } from '../app/app.js';\n",
  },
];

let copy: string;
let output = '';
let status: number | null = null;

before(() => {
  copy = mkdtempSync(join(tmpdir(), 'intentlog-boundaries-'));
  for (const f of ['src', 'package.json', 'tsconfig.json', '.dependency-cruiser.cjs'])
    cpSync(join(root, f), join(copy, f), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  for (const c of CROSSINGS) writeFileSync(join(copy, c.file), c.text);
  const run = spawnSync('npm', ['run', '--silent', 'lint:boundaries'], {
    cwd: copy,
    encoding: 'utf8',
  });
  output = run.stdout + run.stderr;
  status = run.status;
});
after(() => rmSync(copy, { recursive: true, force: true }));

describe('npm run lint: the import rules', () => {
  it('runs the boundary check', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    assert.match(scripts.lint!, /npm run lint:boundaries/);
  });

  it('fails on each import written across a rule, naming the rule and the file', () => {
    assert.notEqual(status, 0, output);
    for (const c of CROSSINGS) assert.ok(output.includes(`${c.rule}: ${c.file}`), c.rule);
  });

  it('and on nothing else: the tree as it is keeps the rules', () => {
    const violations = output.split('\n').filter((l) => /^\s*error /.test(l));
    assert.deepEqual(
      violations.map((l) => l.trim().split(' ')[2]).sort(),
      CROSSINGS.map((c) => c.file).sort(),
      output,
    );
  });
});
