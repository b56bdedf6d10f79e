import { missionsEvents } from '../../events/missions/index.js';
import { missionsProjector } from '../../projections/missions/desk.js';
import type { KernelModule } from '../kernel-module.js';
import { startArtifactSink } from './artifact-sink.js';
import { missionsArtifactFindings } from './service.js';

/** Missions below their surface: events, the desk read model and its artifact files. */
export const missionsKernel = {
  name: 'missions',
  events: missionsEvents,
  projectors: [missionsProjector],
  // the artifact files: a sink of their own in the writer, off the write path (artifact-sink.ts)
  onWriter: startArtifactSink,
  audits: [{ name: 'missions artifacts', run: missionsArtifactFindings }],
} satisfies KernelModule;
