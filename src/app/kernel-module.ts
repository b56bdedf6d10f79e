import type { EventDefinition } from '../events/catalog/define.js';
import type { Projector } from '../projections/projector.js';

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
};
