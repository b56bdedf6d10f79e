import { missionsEvents } from '../../events/missions/index.js';
import { missionsProjector } from '../../projections/missions/desk.js';
import type { KernelModule } from '../kernel-module.js';
import { writeArtifacts } from './artifact-projection.js';
import { missionsArtifactFindings } from './service.js';

/** Missions below their surface: events, the desk read model and its artifact files. */
export const missionsKernel = {
  name: 'missions',
  events: missionsEvents,
  // the artifact files are the read model's effect: written where the log is folded
  projectors: [{ ...missionsProjector, effect: writeArtifacts }],
  audits: [{ name: 'missions artifacts', run: missionsArtifactFindings }],
} satisfies KernelModule;
