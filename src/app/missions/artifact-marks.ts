import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { own } from '../../events/own.js';
import { removeProjectFile, writeProjectFile } from '../project/files.js';
import { ARTIFACT_DIR, syncArtifacts } from './artifacts.js';

/**
 * What the artifact sink last wrote of a file: the digest of its text, and the size and mtime
 * the file had once written. A file whose digest is unchanged is not written again; one whose
 * size or mtime moved (edited, deleted, replaced) is, without its bytes being read back.
 */
export type FileMark = { sha: string; size: number; mtime: number };
/** A project's files by name, as the sink last left them. */
export type ProjectMarks = Record<string, FileMark>;

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

const pathOf = (root: string, name: string) => join(root, ARTIFACT_DIR, name);

/** The file as it is on disk now (never following a link), or undefined when absent. */
const statOf = async (root: string, name: string) => {
  try {
    const stats = await lstat(pathOf(root, name));
    return stats.isFile() ? { size: stats.size, mtime: stats.mtimeMs } : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

/** True when the file is no longer what the sink wrote (gone, edited, replaced by a link). */
const moved = async (root: string, name: string, mark: FileMark): Promise<boolean> => {
  const now = await statOf(root, name);
  return now === undefined || now.size !== mark.size || now.mtime !== mark.mtime;
};

/** A file written just now, marked with what it holds and what the disk says of it. */
const written = async (root: string, name: string, text: string): Promise<FileMark> => {
  await writeProjectFile(root, `${ARTIFACT_DIR}/${name}`, text);
  const now = await statOf(root, name);
  return { sha: digest(text), size: now?.size ?? -1, mtime: now?.mtime ?? -1 };
};

/** Marks of files as they are, after a full comparison (the first time a project is seen). */
const markAll = async (root: string, files: Record<string, string>): Promise<ProjectMarks> => {
  const marks: ProjectMarks = {};
  for (const [name, text] of Object.entries(files)) {
    const now = await statOf(root, name);
    marks[name] = { sha: digest(text), size: now?.size ?? -1, mtime: now?.mtime ?? -1 };
  }
  return marks;
};

/**
 * Brings a project's artifact directory in line with `files`, knowing what it last wrote
 * (`before`): writes the files whose text changed or whose file moved on disk, removes the
 * ones it wrote that `files` no longer has. Without marks (a project the sink has not seen,
 * or files written by an earlier release) it compares the disk in full once. Answers the new
 * marks and how many files it wrote or removed.
 */
export const writeMarked = async (
  root: string,
  files: Record<string, string>,
  before: ProjectMarks | undefined,
): Promise<{ marks: ProjectMarks; changed: number }> => {
  if (before === undefined) {
    const changed = (await syncArtifacts(root, files)).length;
    return { marks: await markAll(root, files), changed };
  }
  const marks: ProjectMarks = {};
  let changed = 0;
  for (const [name, text] of Object.entries(files)) {
    const mark = own(before, name);
    if (mark && mark.sha === digest(text) && !(await moved(root, name, mark))) {
      marks[name] = mark;
      continue;
    }
    marks[name] = await written(root, name, text);
    changed++;
  }
  for (const name of Object.keys(before))
    if (!(name in files)) {
      await removeProjectFile(root, `${ARTIFACT_DIR}/${name}`);
      changed++;
    }
  return { marks, changed };
};
