import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { missionsError } from '../../commands/missions/errors.js';
import { isProjectFileError, isUnder, onKernelFileSystem } from '../project/files.js';

/**
 * Every path the missions surface touches is resolved against the project root and confined to
 * it: lexically (`..`, absolute paths elsewhere) and physically (the real path of the deepest
 * existing ancestor, so a symlink inside the project that points outside is refused too).
 * The file-system calls are synchronous on purpose: a real path takes microseconds, while a
 * promise hop through libuv's thread pool waits behind the log's fsyncs (milliseconds under load)
 * on every activity check.
 */

const within = isUnder;

/** The real path of `path`, or of its deepest existing ancestor joined with the rest. */
const realOrAncestor = async (path: string): Promise<string> => {
  // Paths an agent is about to create do not exist yet: ask lstat, which answers undefined
  // instead of throwing (building an ENOENT error per missing path was most of a check's own
  // CPU).
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat !== undefined)
    try {
      return realpathSync.native(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // a dangling symlink lands where its target would be created: follow it, not its name
      if (stat.isSymbolicLink()) return realOrAncestor(resolve(dirname(path), readlinkSync(path)));
    }
  const parent = dirname(path);
  if (parent === path) return path;
  return resolve(await realOrAncestor(parent), relative(parent, path));
};

/**
 * A project root as the log keys it: absolute, real (symlinks resolved), an existing directory,
 * not on a kernel file system (/proc, /sys: no project lives there, and no artifact may go there).
 */
export const canonicalRoot = async (path: string): Promise<string> => {
  if (hasNul(path))
    throw missionsError('invalid_args', 'project_path contains a NUL byte', {
      project_path: path,
    });
  if (!isAbsolute(path))
    throw missionsError('invalid_args', 'project_path must be an absolute path', {
      project_path: path,
    });
  let real: string;
  try {
    real = realpathSync.native(path);
    if (!statSync(real).isDirectory()) throw new Error('not a directory');
  } catch {
    throw missionsError('missing_project', 'project_path is not an existing directory', {
      project_path: path,
    });
  }
  if (await onKernelFileSystem(real))
    throw missionsError('invalid_args', 'project_path is on a kernel file system, not a project', {
      project_path: path,
    });
  return real;
};

/**
 * A directory bound through a link must lie under the link's own directory (HAI-MCP's bind
 * refuses a link to a directory elsewhere with `path_outside_root`, rather than binding wherever
 * it points). Call after `canonicalRoot`: the path names an existing directory.
 */
export const refuseLinkOut = (path: string): void => {
  const named = path.replace(/\/+$/, '') || '/';
  if (!lstatSync(named, { throwIfNoEntry: false })?.isSymbolicLink()) return;
  const target = realpathSync.native(named);
  const home = realpathSync.native(dirname(named));
  if (!within(home, target))
    throw missionsError('path_outside_root', 'the path is a link to a directory elsewhere', {
      project_path: path,
      target,
    });
};

/** A NUL byte ends a path at the system call: such a path names nothing, and is refused. */
export const hasNul = (path: string): boolean => path.includes('\0');

export type Confined = {
  path: string;
  relative: string;
  inside_root: boolean;
  /** the path cannot name a file at all */
  invalid?: 'nul';
};

/** Where `path` (relative to the root, or absolute) really lands, and whether that is inside. */
export const locate = async (root: string, path: string): Promise<Confined> => {
  if (hasNul(path)) return { path, relative: path, inside_root: false, invalid: 'nul' };
  const absolute = resolve(root, path);
  const relativePath = relative(root, absolute).split(sep).join('/');
  if (!within(root, absolute)) return { path, relative: relativePath, inside_root: false };
  return {
    path,
    relative: relativePath,
    inside_root: within(root, await realOrAncestor(absolute)),
  };
};

/**
 * Why an `allowed_paths` entry is no safe prefix, read from its text alone: a NUL byte, a `~`
 * or a backslash, `..` that climbs out, an absolute path elsewhere (HAI-MCP: review_required).
 * An absolute path inside the root is fine (made relative); a link out is `confine`'s.
 */
export const unsafePrefix = (root: string | null, path: string): boolean => {
  if (hasNul(path) || path.startsWith('~') || path.includes('\\')) return true;
  if (root === null) return isAbsolute(path) || path.split('/').includes('..');
  return !within(root, resolve(root, path));
};

/** `locate`, refusing with `path_outside_root` what lands outside. */
export const confine = async (root: string, path: string): Promise<Confined> => {
  const located = await locate(root, path);
  if (located.invalid)
    throw missionsError('invalid_args', 'the path contains a NUL byte', { path });
  if (!located.inside_root)
    throw missionsError('path_outside_root', 'the path resolves outside the project root', {
      path,
      root,
    });
  return located;
};

/**
 * Refuses (`path_outside_root`) a read of a project whose artifact directory `dir`, or a file in
 * it, is a link that leads out of the root (a dangling one: where its target would be). The
 * reads answer from the log, not these files, so without this check a tampered directory would
 * read as an empty desk, `ok`, where HAI-MCP refuses it: a silent null hides the tampering.
 * Costs one lstat, and a directory listing only when the directory exists.
 */
export const refuseLinkedArtifacts = async (root: string, dir: string): Promise<void> => {
  const refuse = (path: string) => {
    throw missionsError('path_outside_root', `${path}: a link leads out of the project root`, {
      path,
      root,
    });
  };
  const at = await locate(root, dir);
  if (!at.inside_root) refuse(dir);
  const entries = (() => {
    try {
      return readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      return []; // absent, or not a directory: nothing is read through it
    }
  })();
  for (const entry of entries)
    if (entry.isSymbolicLink() && !(await locate(root, `${dir}/${entry.name}`)).inside_root)
      refuse(`${dir}/${entry.name}`);
};

/**
 * Runs file work under a project root, a link out of it (project/files.ts) answered in the
 * contract's words: `path_outside_root`, or `invalid_args` for what is not a file.
 */
export const inProject = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (!isProjectFileError(error)) throw error;
    throw missionsError(
      error.reason === 'outside_root' ? 'path_outside_root' : 'invalid_args',
      error.message,
      { path: error.path },
    );
  }
};
