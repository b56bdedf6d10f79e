import { catalogOf, openApp, withProject, type AppOptions } from '../app/app.js';
import { projectModule } from '../app/project/module.js';
import { kernelPages } from '../web/pages/index.js';
import { contexts } from './contexts.js';
import { moduleOf, type Registry } from './define.js';

export { defineContext, defineModule, type Module, type Registry } from './define.js';

/** Every context of the registry (contexts.ts), loaded whole: what `serve` and the tests open. */
export const modules: Registry = await Promise.all(contexts.map(moduleOf));

/** The app with every registered module (what the CLI and the tests open). */
export const openIntentlog = (options: Omit<AppOptions, 'modules'> & { modules?: Registry } = {}) =>
  openApp({ ...options, modules: options.modules ?? modules });

/** The web view's pages of a registry: each context's in registry order, then its own. */
export const pagesOf = (registry: Registry) => [
  ...registry.flatMap((m) => m.pages ?? []),
  ...kernelPages,
];

/** The MCP surfaces of a registry. */
export const surfacesOf = (registry: Registry) => registry.flatMap((m) => m.surfaces ?? []);

/** Every read model of the registered contexts, the project context's included. */
export const allProjectors = [projectModule, ...modules].flatMap((m) => m.projectors ?? []);

/** The catalog of every registered context (what migrations and golden tests read with). */
export const fullCatalog = () => catalogOf(withProject(modules));
