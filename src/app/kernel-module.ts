import type { EventDefinition } from '../events/catalog/define.js';
import type { EventLog } from '../events/index.js';
import type { ProjectionStatus } from '../projections/index.js';
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
  /** ops the writer serves for this context */
  writerOps?: Readonly<Record<string, ContextOp>>;
  /**
   * Work of this context that runs in the process holding the writer role, from when it is the
   * writer and its app is open (the intent Hooks' spool and view files, hook-keeper.ts);
   * answers how to stop it, which runs before the read models stop and the log closes.
   */
  onWriter?: (writer: WriterContext) => Promise<() => Promise<void>>;
};

/**
 * What a context's writer work is given: the app, and the writer's own log and read models,
 * which it reaches in this process without the app's route, so its stop (which runs while
 * the app is closing, its route already closed) can still read and write.
 */
export type WriterContext = {
  app: App;
  log: EventLog;
  waitFor: (position: number, models?: readonly string[]) => Promise<void>;
  status: () => Promise<ProjectionStatus[]>;
  /**
   * The log's head when this process became the writer, read before any write went through
   * it: the work starts once the app is open, and writes may come first.
   */
  becameWriterAt: Promise<number>;
};
