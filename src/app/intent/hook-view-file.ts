import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { makeDirs } from '../../events/make-dirs.js';

/**
 * The per-project file a Hook reads instead of the store (docs/intent.md, "Hooks"): what the
 * writer last knew of the project's tasks that a host session feeds — the session's hash, the
 * task's mode, its recovery flag, its counts and up to CONTEXT_MAX of its direct user
 * statements. The writer keeps it (hook-keeper.ts); a Hook only reads it.
 *
 * Its content is sealed as the log's is (events/sealing.ts: AES-256-GCM under a key kept apart
 * from the sealed bytes), under a key of its own in a file beside it, named by the view that
 * uses it. Every rewrite seals under a new key and removes the old one, so a statement the
 * log shredded (a deleted claim) cannot be read back from an old copy of the view once the
 * next view is written. Private tasks' claims never reach the log, so never reach the view.
 * No imports but Node's: a Hook process loads this file and a handful of others.
 */
export const CONTEXT_MAX = 20;

export type HookViewTask = {
  task_id: string;
  /** markerHash of the host session that feeds the task now */
  session_hash: string;
  /** the log position the session was bound at: of two tasks a session named, the later wins */
  position: number;
  mode: 'on' | 'private' | 'off';
  /** a post-compact's flag, not yet served by a SessionStart */
  recovery: 'verified' | 'unverified' | null;
  /** active claims, the direct statements among them */
  active: number;
  /** the first CONTEXT_MAX active direct user statements (mode on only) */
  direct: string[];
};

export type HookView = { v: 1; project_id: string; tasks: HookViewTask[] };

/** Where the Hook side of a data dir lives: the views and the spool. */
export const hooksDir = (dataDir: string): string => join(dataDir, 'intent-hooks');
export const viewsDir = (dataDir: string): string => join(hooksDir(dataDir), 'views');

const viewPath = (dataDir: string, rootHash: string) => join(viewsDir(dataDir), `${rootHash}.view`);
const keyPath = (dataDir: string, rootHash: string, keyId: string) =>
  join(viewsDir(dataDir), `${rootHash}.${keyId}.key`);

const HEX = /^[0-9a-f]{64}$/;

/** Whether a bound root is one the Hooks name (intent's sha256 of the path); other contexts bind others. */
export const isRootHash = (root: string): boolean => HEX.test(root);

type Sealed = { v: 1; key: string; iv: string; tag: string; data: string };

/** Writes a file whole or not at all: a temporary file, fsync'd, renamed over the name. */
export const writeDurably = (path: string, bytes: Uint8Array | string): void => {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
};

/** The names in a directory; none when it does not exist (yet): no Hook ran, no writer wrote. */
export const namesIn = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** fsync of a directory, so a rename into it survives a crash (no-op where unsupported). */
export const syncDir = (dir: string): void => {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Windows cannot open a directory: its renames are durable once they return
  }
};

/** Seals and writes a project's view (the writer's side), under a fresh key. */
export const writeView = (dataDir: string, rootHash: string, view: HookView): void => {
  if (!HEX.test(rootHash)) throw new RangeError('a root hash is 64 hex digits');
  const dir = viewsDir(dataDir);
  makeDirs(dir, 0o700);
  const key = randomBytes(32);
  const keyId = randomBytes(8).toString('hex');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(rootHash));
  const data = Buffer.concat([cipher.update(JSON.stringify(view), 'utf8'), cipher.final()]);
  const sealed: Sealed = {
    v: 1,
    key: keyId,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
  writeDurably(keyPath(dataDir, rootHash, keyId), key);
  writeDurably(viewPath(dataDir, rootHash), JSON.stringify(sealed));
  syncDir(dir);
  // the keys of earlier views: what they sealed can no longer be read
  for (const name of readdirSync(dir))
    if (name.startsWith(`${rootHash}.`) && name.endsWith('.key') && !name.includes(keyId))
      rmSync(join(dir, name), { force: true });
};

/** Removes a root's view and its keys (the root was unbound). */
export const removeView = (dataDir: string, rootHash: string): void => {
  const dir = viewsDir(dataDir);
  for (const name of namesIn(dir))
    if (name.startsWith(`${rootHash}.`)) rmSync(join(dir, name), { force: true });
};

/** The root hashes that have a view. */
export const viewRoots = (dataDir: string): string[] =>
  namesIn(viewsDir(dataDir))
    .filter((n) => n.endsWith('.view'))
    .map((n) => n.slice(0, -'.view'.length));

const isSealed = (value: unknown): value is Sealed => {
  const v = value as Partial<Sealed> | null;
  return (
    v !== null &&
    typeof v === 'object' &&
    v.v === 1 &&
    typeof v.key === 'string' &&
    /^[0-9a-f]{16}$/.test(v.key) &&
    typeof v.iv === 'string' &&
    typeof v.tag === 'string' &&
    typeof v.data === 'string'
  );
};

const unsealOnce = (dataDir: string, rootHash: string): HookView | undefined => {
  const sealed: unknown = JSON.parse(readFileSync(viewPath(dataDir, rootHash), 'utf8'));
  if (!isSealed(sealed)) return undefined;
  const key = readFileSync(keyPath(dataDir, rootHash, sealed.key));
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(Buffer.from(rootHash));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  const text = Buffer.concat([
    decipher.update(Buffer.from(sealed.data, 'base64')),
    decipher.final(),
  ]).toString('utf8');
  const view = JSON.parse(text) as HookView;
  return view.v === 1 && Array.isArray(view.tasks) ? view : undefined;
};

/**
 * A project's view as the writer last wrote it, or undefined (none: the root is no project's,
 * or no writer has run since this release). A read that meets a rewrite half done (the view
 * renamed, its key already gone) reads once more.
 */
export const readView = (dataDir: string, rootHash: string): HookView | undefined => {
  if (!HEX.test(rootHash)) return undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return unsealOnce(dataDir, rootHash);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && attempt === 0) continue;
      return undefined;
    }
  }
  return undefined;
};
