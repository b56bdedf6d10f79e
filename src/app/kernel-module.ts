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
 * An operation a context asks the writer to run with its app, for a process that should not
 * open the app itself (a Hook): named `<context>.<op>`, plain data in and out (it crosses the
 * writer socket as msgpack), safe to run twice (a call in flight is resent after a takeover).
 */
export type ContextOp = (app: App, args: unknown) => Promise<unknown>;

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
  /** ops the writer serves for this context (`intent.hook`) */
  writerOps?: Readonly<Record<string, ContextOp>>;
};
