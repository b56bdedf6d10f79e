import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import {
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  realpath,
  rename,
  stat,
  statfs,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

/**
 * Files under a project's root, read and written so that no link leads out of it: each path is
 * taken apart lexically (no absolute path, no `..` above the root), the last component is
 * opened with O_NOFOLLOW, and the descriptor's real path, not just the name, must lie under the
 * root. Temporaries are created exclusively (O_CREAT|O_EXCL, a random name) in the verified
 * directory and renamed there. Every context's project files go through here (the missions
 * artifacts and evidence, the owner channel, the story map's design files and link file), so a
 * context names only what it reads or writes, and each maps a refusal to its own error code.
 *
 * What Node cannot close: a rename takes names, not descriptors (no renameat), so a directory
 * swapped for a link between the check and the rename would move a file we created ourselves,
 * never overwrite one outside. A hard link inside the project is the file it names.
 */

export type FileRefusal =
  /** a link (or `..`, or an absolute path) leads out of the root, or the root itself moved */
  | 'outside_root'
  /** something that is not a regular file (a directory, a FIFO, a device) where a file is read */
  | 'not_a_file'
  /** a file where a directory is needed */
  | 'not_a_directory';

export class ProjectFileError extends Error {
  constructor(
    readonly reason: FileRefusal,
    /** the path as the caller named it, relative to the root */
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProjectFileError';
  }
}

export const isProjectFileError = (error: unknown): error is ProjectFileError =>
  error instanceof ProjectFileError;

const outside = (path: string, why: string) =>
  new ProjectFileError('outside_root', path, `${path}: ${why}`);

const errno = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** The components of `path` under the root: refuses an absolute path and `..` above the root. */
export const componentsOf = (path: string): string[] => {
  if (path.includes('\0') || isAbsolute(path) || /^[a-zA-Z]:/.test(path))
    throw outside(path, 'not a path relative to the project root');
  const parts: string[] = [];
  for (const part of path.split(/[\\/]+/)) {
    if (part === '' || part === '.') continue;
    if (part !== '..') parts.push(part);
    else if (parts.pop() === undefined) throw outside(path, 'climbs above the project root');
  }
  return parts;
};

/** Whether `path` is `root` or lies under it (both absolute, canonical). */
export const isUnder = (root: string, path: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);

/** The root must be canonical: a root that is now a link (or gone) is refused, not followed. */
const requireCanonical = async (root: string): Promise<void> => {
  const real = await realpath(root).catch(() => undefined);
  if (real !== root) throw outside(root, 'the project root is not the directory it was');
};

/**
 * Where an open descriptor really is: /proc/self/fd on Linux; elsewhere the real path of its
 * name, accepted only when that is the same file (device and inode) as the descriptor.
 */
const realPathOf = async (handle: FileHandle, name: string): Promise<string | undefined> => {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    const [real, opened] = await Promise.all([
      realpath(name).catch(() => undefined),
      handle.stat(),
    ]);
    if (real === undefined) return undefined;
    const named = await stat(real).catch(() => undefined);
    return named && named.dev === opened.dev && named.ino === opened.ino ? real : undefined;
  }
};

/** Opens `name` with O_NOFOLLOW and says where the descriptor really is; undefined if absent. */
const openHeld = async (
  name: string,
  path: string,
  flags: number,
  mode?: number,
): Promise<{ handle: FileHandle; real: string | undefined } | undefined> => {
  let handle: FileHandle;
  try {
    handle = await open(name, flags | constants.O_NOFOLLOW, mode);
  } catch (error) {
    const code = errno(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'ELOOP') throw outside(path, 'is a link');
    throw error;
  }
  return { handle, real: await realPathOf(handle, name).catch(() => undefined) };
};

/** `openHeld` of `root/parts`, refused unless the descriptor lies under the root. */
const openUnder = async (
  root: string,
  path: string,
  parts: readonly string[],
  flags: number,
  mode?: number,
): Promise<{ handle: FileHandle; real: string } | undefined> => {
  const opened = await openHeld(join(root, ...parts), path, flags, mode);
  if (!opened) return undefined;
  const { handle, real } = opened;
  if (real === undefined || !isUnder(root, real)) {
    await handle.close();
    throw outside(path, 'leads out of the project root');
  }
  return { handle, real };
};

const READ = constants.O_RDONLY | constants.O_NONBLOCK;
const DIRECTORY = constants.O_RDONLY | constants.O_DIRECTORY;

/** A file's bytes, read through a descriptor held to the root; undefined when it is absent. */
export const readProjectFile = async (root: string, path: string): Promise<Buffer | undefined> => {
  const parts = componentsOf(path);
  await requireCanonical(root);
  const opened = await openUnder(root, path, parts, READ);
  if (!opened) return undefined;
  try {
    if (!(await opened.handle.stat()).isFile())
      throw new ProjectFileError('not_a_file', path, `${path} is not a regular file`);
    return await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
};

/** What is at a path under the root (without following a link out of it). */
export const probeProjectPath = async (
  root: string,
  path: string,
): Promise<'file' | 'directory' | 'other' | 'missing'> => {
  const parts = componentsOf(path);
  await requireCanonical(root);
  const opened = await openUnder(root, path, parts, READ);
  if (!opened) return 'missing';
  try {
    const stats = await opened.handle.stat();
    return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';
  } finally {
    await opened.handle.close();
  }
};

/**
 * The real path of a directory under the root, each component checked with lstat: a link is
 * followed only when it stays under the root. `create`: missing components are made (one
 * mkdir each, never `recursive`, which loops forever under /proc on Node 20).
 */
const directoryUnder = async (
  root: string,
  path: string,
  parts: readonly string[],
  create: boolean,
): Promise<string | undefined> => {
  await requireCanonical(root);
  let at = root;
  for (const part of parts) {
    const next = join(at, part);
    let entry = await lstat(next).catch(() => undefined);
    if (entry === undefined) {
      if (!create) return undefined;
      await mkdir(next).catch((error: unknown) => {
        if (errno(error) !== 'EEXIST') throw error;
      });
      entry = await lstat(next);
    }
    if (entry.isSymbolicLink()) {
      const real = await realpath(next).catch(() => undefined);
      if (real === undefined || !isUnder(root, real)) throw outside(path, 'a link leads out');
      at = real;
    } else at = next;
    if (!(await stat(at)).isDirectory())
      throw new ProjectFileError('not_a_directory', path, `${path}: ${part} is not a directory`);
  }
  // the walk judged names; the descriptor says where the directory really is
  const held = await openUnder(root, path, [relative(root, at)], DIRECTORY);
  if (!held) return undefined;
  await held.handle.close();
  return held.real;
};

/** A directory under the root, made if missing; its real path. */
export const ensureProjectDir = async (root: string, path: string): Promise<string> => {
  const dir = await directoryUnder(root, path, componentsOf(path), true);
  if (dir === undefined) throw outside(path, 'was not made where it was asked');
  return dir;
};

/** The real path of a directory under the root, undefined when absent; nothing is made. */
export const existingProjectDir = (root: string, path: string): Promise<string | undefined> =>
  directoryUnder(root, path, componentsOf(path), false);

/** The names in a directory under the root ([] when it is absent). */
export const listProjectDir = async (root: string, path: string): Promise<string[]> => {
  const dir = await directoryUnder(root, path, componentsOf(path), false);
  return dir === undefined ? [] : readdir(dir);
};

/** A file's verified directory (made when `create`) and its name; undefined dir: absent. */
const fileAt = async (root: string, path: string, create: boolean) => {
  const parts = componentsOf(path);
  const name = parts.pop();
  if (name === undefined) throw new ProjectFileError('not_a_file', path, `${path} names no file`);
  return { dir: await directoryUnder(root, path, parts, create), name };
};

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

/** Writes `content` into a file created exclusively in `dir`; its descriptor held to `dir`. */
const createIn = async (dir: string, path: string, name: string, content: string, mode: number) => {
  const opened = await openUnder(dir, path, [name], CREATE, mode);
  if (!opened || opened.real !== join(dir, name)) {
    await opened?.handle.close();
    throw outside(path, 'was not created where it was asked');
  }
  try {
    await opened.handle.writeFile(content);
  } finally {
    await opened.handle.close();
  }
};

/**
 * Replaces a file under the root: a temporary created exclusively beside it (random name), then
 * renamed over it. A link in its place is replaced, never followed.
 */
export const writeProjectFile = async (
  root: string,
  path: string,
  content: string,
  mode = 0o644,
): Promise<void> => {
  const { dir, name } = await fileAt(root, path, true);
  if (dir === undefined) throw outside(path, 'has no directory');
  const temp = `.${name}.${randomBytes(8).toString('hex')}.tmp`;
  await createIn(dir, path, temp, content, mode);
  try {
    await rename(join(dir, temp), join(dir, name));
  } catch (error) {
    await unlink(join(dir, temp)).catch(() => undefined);
    throw error;
  }
};

/** Creates a new file under the root; `EEXIST` when one is there (link or not). */
export const createProjectFile = async (
  root: string,
  path: string,
  content: string,
  mode = 0o600,
): Promise<void> => {
  const { dir, name } = await fileAt(root, path, true);
  if (dir === undefined) throw outside(path, 'has no directory');
  await createIn(dir, path, name, content, mode);
};

/** Removes a file under the root (a link is removed itself, its target untouched). */
export const removeProjectFile = async (root: string, path: string): Promise<void> => {
  const { dir, name } = await fileAt(root, path, false);
  if (dir === undefined) return;
  await unlink(join(dir, name)).catch((error: unknown) => {
    if (errno(error) !== 'ENOENT') throw error;
  });
};

/**
 * Kernel file systems (Linux statfs magic numbers): a directory there is no project, and
 * writing into one (/proc, /sys, a cgroup tree) is never meant.
 */
const KERNEL_FILE_SYSTEMS = new Set([
  0x9fa0, // proc
  0x62656572, // sysfs
  0x27e0eb, // cgroup
  0x63677270, // cgroup2
  0x1cd1, // devpts
  0x64626720, // debugfs
  0x74726163, // tracefs
  0x73636673, // securityfs
  0xcafe4a11, // bpf
  0x62656570, // configfs
  0x6165676c, // pstore
  0xde5e81e4, // efivarfs
  0xf97cff8c, // selinuxfs
  0x65735543, // fusectl
  0x42494e4d, // binfmt_misc
  0x6e736673, // nsfs
]);

/** Whether a directory lies on a kernel file system (false where statfs cannot tell). */
export const onKernelFileSystem = async (dir: string): Promise<boolean> => {
  const stats = await statfs(dir).catch(() => undefined);
  return stats !== undefined && KERNEL_FILE_SYSTEMS.has(Number(stats.type));
};
