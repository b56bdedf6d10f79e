import { realpath, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { invalidArgument } from '../../commands/errors.js';
import { sha256Hex } from '../../events/index.js';

/** Windows UNC (`\\server\share`) and device (`\\.\`, `\\?\`) namespaces: never local roots. */
const NOT_LOCAL = /^(\\\\|\/\/)/;

/**
 * A project root as the kernel keeps it: the real path of an absolute, existing, local
 * directory. UNC and device paths are refused before the file system is touched (resolving one
 * may reach the network). Throws `invalid_argument` naming what is wrong.
 */
export const canonicalRoot = async (path: string): Promise<string> => {
  if (NOT_LOCAL.test(path)) throw invalidArgument('a project root must be a local path', { path });
  if (!isAbsolute(path)) throw invalidArgument('a project root must be an absolute path', { path });
  const real = await realpath(path).catch(() => {
    throw invalidArgument('the project root does not exist', { path });
  });
  if (!(await stat(real)).isDirectory())
    throw invalidArgument('the project root is not a directory', { path });
  return real;
};

/**
 * What the log stores of a root: a hash of a fixed prefix and the canonical path, never the
 * path itself (a root names a person's directories).
 */
export const rootHash = (canonical: string): string => sha256Hex(`intentlog-root:v1\n${canonical}`);
