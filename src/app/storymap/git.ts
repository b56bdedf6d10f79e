import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A file's lines added and removed (binary files count as null). */
export type FileChange = { file: string; added: number | null; removed: number | null };

const git = async (root: string, args: readonly string[]) =>
  (await run('git', ['-C', root, ...args], { timeout: 10_000, maxBuffer: 8 * 1024 * 1024 })).stdout;

export const isGitRepo = async (root: string): Promise<boolean> =>
  git(root, ['rev-parse', '--is-inside-work-tree'])
    .then((out) => out.trim() === 'true')
    .catch(() => false);

const numstat = (out: string): FileChange[] =>
  out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [added, removed, ...file] = l.split('\t');
      const n = (x: string | undefined) => (x === '-' || x === undefined ? null : Number(x));
      return { file: file.join('\t'), added: n(added), removed: n(removed) };
    });

const merge = (changes: readonly FileChange[]): FileChange[] => {
  const byFile = new Map<string, FileChange>();
  for (const c of changes) {
    const seen = byFile.get(c.file);
    const sum = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);
    byFile.set(
      c.file,
      seen
        ? { file: c.file, added: sum(seen.added, c.added), removed: sum(seen.removed, c.removed) }
        : c,
    );
  }
  return [...byFile.values()].sort((a, b) => a.file.localeCompare(b.file));
};

/**
 * What changed in `files` since `since` (ISO time): the commits after it and what is not
 * committed yet (`git diff HEAD`), per file. A repository without commits answers only the
 * working tree.
 */
/**
 * Commits after the second `since` falls in. Git keeps commit times in whole seconds and its
 * `--since` includes that second, so a commit made in the same second as the build (the build's
 * own commit, moments before it was recorded) would count as a change after it.
 */
const afterSecond = (since: string): string =>
  `--since=@${Math.floor(Date.parse(since) / 1000) + 1}`;

export const changesSince = async (
  root: string,
  files: readonly string[],
  since: string | null,
): Promise<FileChange[]> => {
  if (files.length === 0) return [];
  const committed = since
    ? await git(root, ['log', afterSecond(since), '--numstat', '--format=', '--', ...files]).catch(
        () => '',
      )
    : '';
  const pending = await git(root, ['diff', 'HEAD', '--numstat', '--', ...files]).catch(() => '');
  return merge([...numstat(committed), ...numstat(pending)]);
};
