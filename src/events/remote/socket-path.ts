import { lstatSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sha256Hex } from '../sha256.js';
import { makeDirs } from '../make-dirs.js';

// A Unix socket's path must fit sun_path: 108 bytes on Linux, 104 on macOS, with its NUL.
const SUN_PATH_MAX = 103;

/**
 * Where the writer of a data dir listens: `<data-dir>/writer.sock` (by the data dir's real
 * path); on Windows a named pipe derived from the data dir's path. A data dir too deep for a
 * socket path gets one in a private directory of this user's under the system temp dir, named
 * by a hash of that real path: every process of the data dir, however it names it, finds the
 * same socket.
 */
export const writerSocketPath = (dataDir: string): string => {
  if (process.platform === 'win32')
    return `\\\\.\\pipe\\intentlog-${sha256Hex(resolve(dataDir).toLowerCase()).slice(0, 32)}`;
  // by the real path: every name of the data dir must choose the same way
  const real = realpathSync(dataDir);
  const inDataDir = join(real, 'writer.sock');
  if (Buffer.byteLength(inDataDir) <= SUN_PATH_MAX) return inDataDir;
  return join(privateSocketDir(), `${sha256Hex(real).slice(0, 24)}.sock`);
};

/**
 * `<tmp>/intentlog-<uid>`, mode 0700, made if missing. Anyone may create names in the temp
 * dir, so one that is not this user's own private directory (a link, another owner, open to
 * others) is refused: a socket there could be someone else's.
 */
const privateSocketDir = (): string => {
  const uid = process.getuid!(); // not Windows: it has named pipes
  const dir = join(tmpdir(), `intentlog-${uid}`);
  makeDirs(dir, 0o700);
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0)
    throw Object.assign(
      new Error(
        `${dir} must be a directory of this user's with mode 0700 (it holds writer sockets of data dirs whose own path is too long for one)`,
      ),
      { code: 'unsafe_socket_dir' },
    );
  return dir;
};
