import type { EventDefinition } from '../events/catalog/define.js';
import type { Projector } from '../projections/projector.js';
import type { App } from './app.js';
import type { AuditFinding } from './audit-records.js';

/**
 * A context's own check for `intentlog audit verify`, beyond the log and its read models: e.g.
 * the files it projects outside the data dir. Answers its findings (none when all is well).
 */
export type ContextAudit = { name: string; run(app: App): Promise<AuditFinding[]> };

/**
 * What the kernel needs of a context to open the log: the event types it writes (the catalog)
 * and the read models it keeps (the projection engine). The full declaration, with surfaces and
 * CLI commands, is `Module` (src/modules/define.ts); this is the part below the surfaces.
 */
export type KernelModule = {
  /** the context: `project`, `governance`, `storymap`, `intent`, `missions` */
  name: string;
  events: readonly EventDefinition[];
  projectors?: readonly Projector[];
  audits?: readonly ContextAudit[];
};
