import { createCatalog } from './catalog.js';
import { governanceEvents } from './governance.js';
import { projectEvents } from './project.js';

/** Every event type the product writes, across contexts. */
export const catalog = createCatalog([...projectEvents, ...governanceEvents]);
