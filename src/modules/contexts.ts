import type { Context } from './define.js';
import { governance } from './governance.js';
import { intent } from './intent.js';
import { missions } from './missions.js';
import { project } from './project.js';
import { storymap } from './storymap.js';
import { system } from './system.js';
import { web } from './web.js';

/**
 * Every context this build serves, in order: the one registry. Add a context here: one line.
 * The declarations load nothing (each part is imported when asked for), so the CLI reads this
 * list at start-up; kernel.ts, surfaces.ts and index.ts load from it what each process needs.
 */
export const contexts: readonly Context[] = [
  system,
  governance,
  project,
  storymap,
  web,
  intent,
  missions,
];
