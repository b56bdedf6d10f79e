import type { KernelModule } from '../app/kernel-module.js';
import { contexts } from './contexts.js';
import { kernelOf } from './define.js';

/**
 * Every context's part below the surfaces: its events and read models. A command that opens
 * the log but serves nothing (`hook`, which hosts start on every prompt) loads only this: the
 * same whole catalog and every read model, since the process may become the writer that keeps
 * them.
 */
export const kernelModules: readonly KernelModule[] = await Promise.all(contexts.map(kernelOf));
