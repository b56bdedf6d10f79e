import type { ModelStore } from '../../events/index.js';
import { missionsQueries } from '../../projections/missions/desk.js';
import { renderArtifacts, syncArtifacts } from './artifacts.js';
import { missionsConfigFromEnv } from './config.js';

/**
 * The artifact files as the projection side writes them: the missions read model's effect
 * (src/modules/missions.ts), run by the writer's engine after each committed batch, so every
 * process's change is written once, by the process that folds the log, and a rebuild of the
 * read model writes them again from the log alone.
 *
 * The engine runs once per process, so the device whose mounts it writes into is per process:
 * `configureMissions` sets it (tests, embedders), else INTENTLOG_DEVICE_ID or the host name.
 */
let device: string | undefined;
let writes = 0;

/** Why a project's artifacts could not be written, as hai_health and the audit tell it. */
export type ArtifactFailure = { project_id: string; root: string; reason: string; at: string };
const failures = new Map<string, ArtifactFailure>();

/** The last failure of this process's artifact projection for a project, if it still fails. */
export const artifactFailure = (projectId: string): ArtifactFailure | undefined =>
  failures.get(projectId);

const reasonOf = (error: unknown): string =>
  error instanceof Error
    ? `${(error as NodeJS.ErrnoException).code ?? error.name}: ${error.message}`
    : String(error);

/**
 * A directory the files cannot go to (gone, read-only, a kernel file system, a link out of the
 * project) is reported, never thrown: the read model has folded and every other project's
 * files, and every other read model, go on. Told once on stderr per new reason.
 */
const report = (project_id: string, root: string, error: unknown) => {
  const reason = reasonOf(error);
  if (failures.get(project_id)?.reason !== reason)
    process.stderr.write(
      `intentlog: the missions artifacts of ${project_id} were not written to ${root}: ${reason}\n`,
    );
  failures.set(project_id, { project_id, root, reason, at: new Date().toISOString() });
};

export const setArtifactDevice = (deviceId: string): void => {
  device = deviceId;
};

/** Files written or removed by this process's artifact projection (the bench counts them). */
export const artifactWrites = (): number => writes;

/** The projects a batch touched: a desk changed, or a directory was mounted on this device. */
const touched = (keys: readonly string[], deviceId: string) => {
  const desks = new Set<string>();
  const mounted = new Set<string>();
  for (const key of keys) {
    const [kind, first, second] = key.split('/').map(decodeURIComponent);
    if (kind === 'desk' && first !== undefined) desks.add(first);
    if (kind === 'mount' && first === deviceId && second !== undefined) mounted.add(second);
  }
  return { desks, mounted };
};

export const writeArtifacts = async (keys: readonly string[], models: ModelStore) => {
  const deviceId = device ?? missionsConfigFromEnv().deviceId;
  const { desks, mounted } = touched(keys, deviceId);
  const read = missionsQueries(models);
  for (const project_id of new Set([...desks, ...mounted])) {
    const mount = await read.mount(deviceId, project_id);
    if (!mount) continue;
    const desk = await read.desk(project_id);
    // a directory only mounted (no mission desk yet) gets no files until its first change
    if (desk.project_id === '') continue;
    try {
      writes += (await syncArtifacts(mount.local_path, renderArtifacts(desk))).length;
      failures.delete(project_id);
    } catch (error) {
      report(project_id, mount.local_path, error);
    }
  }
};
