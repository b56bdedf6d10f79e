import { webEvents } from '../../events/project/sign-in.js';
import { webSignInProjector } from '../../projections/project/sign-in.js';
import type { KernelModule } from '../kernel-module.js';

/**
 * The web view's sign-in codes and sessions (the project context's, docs/web.md), kept as a
 * module of their own, `web`, loaded by every process that opens the log: a sign-in code
 * printed by `intentlog open` is redeemed by whichever process is the writer.
 */
export const webKernel = {
  name: 'web',
  events: webEvents,
  projectors: [webSignInProjector],
} satisfies KernelModule;
