import { auditPage } from './audit.js';
import { timelinePage } from './timeline.js';

/** The web view's own pages, after every context's: the whole log's timeline and its audit. */
export const kernelPages = [timelinePage, auditPage];
