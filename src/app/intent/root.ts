import { realpath, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { intentError } from '../../commands/intent/errors.js';
import { sha256Hex } from '../../events/index.js';
import { hostSandbox, localFilePath, SANDBOX_META } from '../project/host-root.js';

/**
 * Which directory a call's project is (contracts/intent.md): the host's sandbox metadata when
 * present, else an explicit `project_root`, else exactly one client root; resolved before any
 * state is touched. Only a hash of the canonical root is ever stored.
 */

export type RootSources = {
  /** the request's `_meta` */
  meta: Readonly<Record<string, unknown>> | undefined;
  /** the caller's `project_root` argument */
  explicit: string | undefined;
  /** the client's roots, asked for only when nothing else named the root */
  clientRoots: () => Promise<readonly { uri: string }[] | undefined>;
};

export type ResolvedRoot = {
  canonical: string;
  hash: string;
  source: 'sandbox_meta' | 'project_root' | 'client_root';
};

export const rootHash = (canonical: string): string =>
  sha256Hex(`intentlog/intent-root/v1\0${canonical}`);

// \\server\share, //server/share, \\?\C:\, \\.\pipe\: never handed to the file system
const NETWORK_OR_DEVICE = /^(?:[\\/]{2}|[\\/]{2}[?.][\\/])/;

/** Checks a path's shape, then the file system: an absolute, existing, local directory. */
export const canonicalRoot = async (path: string): Promise<string> => {
  if (NETWORK_OR_DEVICE.test(path) || path.includes('\0'))
    throw intentError('PROJECT_ROOT_INVALID', 'network (UNC) and device paths are refused', {
      project_root: path,
    });
  if (!isAbsolute(path))
    throw intentError('PROJECT_ROOT_INVALID', 'project_root must be an absolute path', {
      project_root: path,
    });
  try {
    const canonical = await realpath(path);
    if (!(await stat(canonical)).isDirectory()) throw new Error('not a directory');
    if (NETWORK_OR_DEVICE.test(canonical)) throw new Error('resolves to a network path');
    return canonical;
  } catch (error) {
    throw intentError('PROJECT_ROOT_INVALID', 'project_root must be an existing local directory', {
      project_root: path,
      reason: error instanceof Error ? error.message : 'unreadable',
    });
  }
};

const sandboxPath = (meta: RootSources['meta']): string | undefined => {
  const sandbox = hostSandbox(meta);
  if (sandbox && sandbox.cwd === undefined)
    throw intentError(
      'PROJECT_ROOT_METADATA_INVALID',
      `${SANDBOX_META} needs an object whose sandboxCwd is a local file:// URI`,
    );
  return sandbox?.cwd;
};

const fromHost = async (meta: string, explicit: string | undefined): Promise<ResolvedRoot> => {
  const canonical = await canonicalRoot(meta).catch(() => {
    throw intentError('PROJECT_ROOT_METADATA_INVALID', 'sandboxCwd is not an existing directory');
  });
  if (explicit !== undefined && (await canonicalRoot(explicit)) !== canonical)
    throw intentError('PROJECT_ROOT_MISMATCH', 'project_root differs from the host sandbox root', {
      project_root: explicit,
    });
  return { canonical, hash: rootHash(canonical), source: 'sandbox_meta' };
};

export const resolveRoot = async (sources: RootSources): Promise<ResolvedRoot> => {
  const meta = sandboxPath(sources.meta);
  if (meta !== undefined) return fromHost(meta, sources.explicit);
  if (sources.explicit !== undefined) {
    const canonical = await canonicalRoot(sources.explicit);
    return { canonical, hash: rootHash(canonical), source: 'project_root' };
  }
  const local = ((await sources.clientRoots()) ?? [])
    .map((r) => localFilePath(r.uri))
    .filter((p) => p !== undefined);
  const only = local.length === 1 ? local[0] : undefined;
  if (only === undefined)
    throw intentError(
      'PROJECT_ROOT_REQUIRED',
      'name the project: pass project_root, or run under a host that advertises exactly one local root',
      { client_roots: local.length },
    );
  const canonical = await canonicalRoot(only);
  return { canonical, hash: rootHash(canonical), source: 'client_root' };
};
