import type { App } from './app.js';
import { missionsCore } from './missions.js';
import { missionsConfigFromEnv, type MissionsConfig } from './missions-config.js';
import { dayOps } from './missions-day.js';
import { missionOps } from './missions-ops.js';
import { closeOps } from './missions-close.js';
import { queryOps } from './missions-queries.js';
import { renderArtifacts, artifactDrift, type ArtifactDrift } from './missions-artifacts.js';
import { perApp } from './per-app.js';

const configured = new WeakMap<App, MissionsConfig>();

/** Sets an app's missions configuration before its first missions call (tests, embedders). */
export const configureMissions = (app: App, config: Partial<MissionsConfig>): void => {
  configured.set(app, { ...missionsConfigFromEnv(), ...config });
};

/** The missions services of one app: made on first use, from its configuration or the env. */
export const missions = perApp((app) => {
  const core = missionsCore(app, configured.get(app) ?? missionsConfigFromEnv());
  return { core, ...missionOps(core), ...closeOps(core), ...queryOps(core), ...dayOps(core) };
});

export type MissionsService = ReturnType<typeof missions>;

/**
 * The audit check of the artifact projection: every project mounted on this device, its files
 * compared with what its log implies. `audit verify` can report what this returns.
 */
export const missionsArtifactAudit = async (
  app: App,
): Promise<{ project_id: string; root: string; drift: ArtifactDrift[] }[]> => {
  const { core } = missions(app);
  const table = await core.mounts();
  const out = [];
  for (const [project_id, devices] of Object.entries(table.projects)) {
    const mount = devices[core.config.deviceId];
    if (!mount) continue;
    const drift = await artifactDrift(
      mount.local_path,
      renderArtifacts(await core.desk(project_id)),
    );
    out.push({ project_id, root: mount.local_path, drift });
  }
  return out;
};
