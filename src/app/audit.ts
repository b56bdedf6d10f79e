import type { Catalog } from '../events/catalog/catalog.js';
import type { EventLog } from '../events/index.js';
import type { Projector } from '../projections/index.js';
import { auditModels } from './audit-models.js';
import { auditRecords, type AuditFinding } from './audit-records.js';

export type { AuditFinding } from './audit-records.js';

export type AuditReport = {
  ok: boolean;
  /** events checked before the first finding (all of them when ok) */
  events: number;
  projects: number;
  /** read-model keys compared (0 when the log itself already failed) */
  modelKeys: number;
  finding?: AuditFinding;
};

export type AuditDeps = {
  log: EventLog;
  catalog: Catalog;
  projectors: readonly Projector[];
  /** resolves once the stored read models have folded the log up to a position */
  waitFor: (position: number) => Promise<void>;
  onProgress?: (done: number, total: number) => void;
  /** the contexts' own checks (app.audits), run once the log and read models passed */
  contexts?: readonly (() => Promise<AuditFinding[]>)[];
  /**
   * Only these projects (an actor's, in the web view): their events and the contexts' findings
   * about them. The read models are one store of every project's, so they are left to the
   * whole-log audit. Undefined: the whole log.
   */
  projects?: ReadonlySet<string>;
};

/**
 * `intentlog audit verify`: every project's hash chain, every record against its own version's
 * schema, then the stored read models against a replay of the log. Stops at the first finding,
 * which names the event (or the read-model key) that is wrong.
 */
export const auditVerify = async (deps: AuditDeps): Promise<AuditReport> => {
  const { log, catalog, projectors, onProgress, projects } = deps;
  const total = await log.head();
  const scan = await auditRecords(log, catalog, (done) => onProgress?.(done, total), projects);
  const base = { events: scan.events, projects: scan.projects };
  if (scan.finding) return { ok: false, ...base, modelKeys: 0, finding: scan.finding };
  const models = projects
    ? { keys: 0, finding: undefined }
    : await auditModels(log, projectors, deps.waitFor);
  if (models.finding)
    return { ok: false, ...base, modelKeys: models.keys, finding: models.finding };
  const reported = (f: AuditFinding) =>
    !projects || (f.project_id !== undefined && projects.has(f.project_id));
  for (const check of deps.contexts ?? []) {
    const finding = (await check()).find(reported);
    if (finding) return { ok: false, ...base, modelKeys: models.keys, finding };
  }
  return { ok: true, ...base, modelKeys: models.keys };
};

/** One line naming what is wrong, for people and logs. */
export const describeFinding = (f: AuditFinding): string => {
  if (f.check === 'context')
    return `${f.context ?? 'context'}${f.project_id ? ` (project ${f.project_id})` : ''}${f.file ? ` ${f.file}` : ''}: ${f.reason}`;
  if (f.check === 'read-model')
    return `read model ${f.key ?? '(all)'}: ${f.reason} (replaying the log does not reproduce it)`;
  const where = f.event_id
    ? `event ${f.event_id} (project ${f.project_id}, cursor ${f.cursor}, position ${f.global_position})`
    : `the record at global position ${f.global_position ?? '?'}`;
  return `${f.check} check failed at ${where}: ${f.reason}`;
};
