export * from './engine.js';
export * from './engine-types.js';
export * from './projector.js';
export type { ProjectView } from './project/projects.js';
export type { TokenView } from './project/tokens.js';
