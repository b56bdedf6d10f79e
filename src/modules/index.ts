import { catalogOf, openApp, withProject, type AppOptions } from '../app/app.js';
import { projectModule } from '../app/project/module.js';
import type { Registry } from './define.js';
import { governanceModule } from './governance.js';
import { intentModule } from './intent.js';
import { missionsModule } from './missions.js';
import { storymapModule } from './storymap.js';
import { systemModule } from './system.js';
import { webModule } from './web.js';

export { defineModule, type Module, type Registry } from './define.js';

/** Every context this build serves. Add a context here: one line. */
export const modules: Registry = [
  systemModule,
  governanceModule,
  storymapModule,
  webModule,
  intentModule,
  missionsModule,
];

/** The app with every registered module (what the CLI and the tests open). */
export const openIntentlog = (options: Omit<AppOptions, 'modules'> & { modules?: Registry } = {}) =>
  openApp({ ...options, modules: options.modules ?? modules });

/** The web view's pages of a registry, each context's in registry order. */
export const pagesOf = (registry: Registry) => registry.flatMap((m) => m.pages ?? []);

/** The MCP surfaces of a registry. */
export const surfacesOf = (registry: Registry) => registry.flatMap((m) => m.surfaces ?? []);

/** Every read model of the registered contexts, the project context's included. */
export const allProjectors = [projectModule, ...modules].flatMap((m) => m.projectors ?? []);

/** The catalog of every registered context (what migrations and golden tests read with). */
export const fullCatalog = () => catalogOf(withProject(modules));
