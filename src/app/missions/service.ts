import type { App } from '../app.js';
import { missionsCore } from './index.js';
import {
  missionsConfigFromEnv,
  missionsConfigOf,
  setMissionsConfig,
  type MissionsConfig,
} from './config.js';
import { dayOps } from './day.js';
import { openOps } from './open.js';
import { leaseOps } from './lease.js';
import { activityOps } from './activity.js';
import { recontractOps } from './recontract.js';
import { closeOps } from './close.js';
import { queryOps } from './queries.js';
import { learningOps } from './learning.js';
import { join } from 'node:path';
import { MISSIONS_MODEL, missionsQueries } from '../../projections/missions/desk.js';
import type { AuditFinding } from '../audit-records.js';
import { ARTIFACT_DIR, artifactDrift, renderArtifacts, type ArtifactDrift } from './artifacts.js';
import { perApp } from '../per-app.js';

/** Sets an app's missions configuration before its first missions call (tests, embedders). */
export const configureMissions = (app: App, config: Partial<MissionsConfig>): void =>
  setMissionsConfig(app, { ...missionsConfigFromEnv(), ...config });

/** The missions services of one app: made on first use, from its configuration or the env. */
export const missions = perApp((app) => {
  const core = missionsCore(app, missionsConfigOf(app));
  return {
    core,
    ...openOps(core),
    ...leaseOps(core),
    ...activityOps(core),
    ...recontractOps(core),
    ...closeOps(core),
    ...queryOps(core),
    ...dayOps(core),
    ...learningOps(core),
  };
});

export type MissionsService = ReturnType<typeof missions>;

/**
 * The audit check of the artifact projection: every project mounted on this device, its files
 * compared with what the missions read model (a fold of the log) implies. `audit verify` runs
 * it through the module's declaration (src/modules/missions.ts).
 */
export const missionsArtifactAudit = async (
  app: App,
): Promise<{ project_id: string; root: string; drift: ArtifactDrift[]; unreadable?: string }[]> => {
  const { core } = missions(app);
  await app.waitFor(await app.log.head(), [MISSIONS_MODEL]);
  const read = missionsQueries(app.log.models);
  const out = [];
  for (const mount of await read.mountsOn(core.config.deviceId)) {
    const files = renderArtifacts(await read.desk(mount.project_id));
    const at = { project_id: mount.project_id, root: mount.local_path };
    try {
      out.push({ ...at, drift: await artifactDrift(mount.local_path, files) });
    } catch (error) {
      // a directory gone, unreadable or linked out of the project is a finding, not a crash
      out.push({ ...at, drift: [], unreadable: error instanceof Error ? error.message : 'error' });
    }
  }
  return out;
};

/** The same check as `audit verify` findings: one per drifted file or unreadable directory. */
export const missionsArtifactFindings = async (app: App): Promise<AuditFinding[]> =>
  (await missionsArtifactAudit(app)).flatMap(({ project_id, root, drift, unreadable }) => {
    const finding = (file: string, reason: string) => ({
      check: 'context' as const,
      context: 'missions artifacts',
      project_id,
      file: join(root, ARTIFACT_DIR, file),
      reason,
    });
    return unreadable !== undefined
      ? [finding('', `unreadable: ${unreadable}`)]
      : drift.map((d) => finding(d.file, `${d.status}: ${DRIFT_REASON[d.status]}`));
  });

const DRIFT_REASON: Record<ArtifactDrift['status'], string> = {
  missing: 'the log implies this file; it is not on disk (rewritten on the next change)',
  edited: 'the file differs from what the log implies (edited by hand? never read back as truth)',
  stale: 'a generated file the log no longer implies',
};
