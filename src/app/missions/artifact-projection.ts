import type { ModelStore } from '../../events/index.js';
import { missionsQueries } from '../../projections/missions/desk.js';
import { writeMarked, type ProjectMarks } from './artifact-marks.js';
import { renderArtifacts } from './artifacts.js';

/**
 * One project's artifact files as the sink writes them (artifact-sink.ts): rendered from the
 * missions read model alone (no clock, no disk), written where this device mounts the project.
 */

/** Why a project's artifacts could not be written, as hai_health and the audit tell it. */
export type ArtifactFailure = { project_id: string; root: string; reason: string; at: string };

export const reasonOf = (error: unknown): string =>
  error instanceof Error
    ? `${(error as NodeJS.ErrnoException).code ?? error.name}: ${error.message}`
    : String(error);

export type ProjectOutcome =
  /** not mounted on this device, or mounted with no desk yet: nothing to write, nothing owed */
  | { kind: 'none' }
  | { kind: 'written'; marks: ProjectMarks; changed: number }
  | { kind: 'failed'; failure: Omit<ArtifactFailure, 'at'> };

/**
 * Renders and writes one project's files. A directory the files cannot go to (gone,
 * read-only, a kernel file system, a link out of the project) is answered, never thrown: the
 * sink reports it and goes on with the other projects.
 */
export const projectArtifacts = async (
  models: ModelStore,
  deviceId: string,
  project_id: string,
  before: ProjectMarks | undefined,
): Promise<ProjectOutcome> => {
  const read = missionsQueries(models);
  const mount = await read.mount(deviceId, project_id);
  if (!mount) return { kind: 'none' };
  const desk = await read.desk(project_id);
  // a directory only mounted (no mission desk yet) gets no files until its first change
  if (desk.project_id === '') return { kind: 'none' };
  try {
    return {
      kind: 'written',
      ...(await writeMarked(mount.local_path, renderArtifacts(desk), before)),
    };
  } catch (error) {
    return {
      kind: 'failed',
      failure: { project_id, root: mount.local_path, reason: reasonOf(error) },
    };
  }
};
