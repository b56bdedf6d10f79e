export * from './engine.js';
export * from './engine-types.js';
export * from './projector.js';
export type { ProjectView } from './projects.js';
export type { TokenView } from './tokens.js';
