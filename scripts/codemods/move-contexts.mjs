// One-shot codemod of issue 29: moves one context's files into its folders (`git mv`, so
// `git log --follow` keeps their history) and rewrites every relative import in the tree that
// named a moved file or sits in one. Usage: node move-contexts.mjs <context> <renames file>,
// the file holding lines `old -> new`. Deleted once the move is done.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, posix } from 'node:path';

const [context, listFile] = process.argv.slice(2);
const CONTEXTS = ['project', 'governance', 'storymap', 'intent', 'missions'];
const contextOf = (path) => path.split('/').find((part) => CONTEXTS.includes(part));

const moves = new Map(
  readFileSync(listFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' -> '))
    .filter(([, to]) => contextOf(to) === context),
);
const movedFrom = new Map([...moves].map(([from, to]) => [to, from]));

for (const [from, to] of moves) {
  mkdirSync(dirname(to), { recursive: true });
  execFileSync('git', ['mv', from, to]);
}

/** The file an import names, as a repository path with the source's extension. */
const sourceOf = (path) => path.replace(/\.js$/, '.ts');
const importOf = (path) => path.replace(/\.ts$/, '.js');
const relative = (fromDir, to) => {
  const rel = posix.relative(fromDir, to);
  return rel.startsWith('.') ? rel : `./${rel}`;
};

const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\brequire\(\s*|new URL\(\s*)(['"])(\.{1,2}\/[^'"]+)\2/g;
const files = execFileSync('git', ['ls-files', 'src', 'test', 'bench', 'scripts'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|mts|mjs|cjs)$/.test(f));
let rewritten = 0;
for (const file of files) {
  const before = movedFrom.get(file) ?? file;
  const text = readFileSync(file, 'utf8');
  const next = text.replace(SPECIFIER, (whole, lead, quote, spec) => {
    const target = posix.join(posix.dirname(before), spec);
    const moved = moves.get(sourceOf(target));
    const now = moved ? importOf(moved) : target;
    const rel = relative(posix.dirname(file), now);
    return rel === spec ? whole : `${lead}${quote}${rel}${quote}`;
  });
  if (next !== text) {
    writeFileSync(file, next);
    rewritten++;
  }
}
console.log(`${context}: moved ${moves.size} files, rewrote imports in ${rewritten}`);
