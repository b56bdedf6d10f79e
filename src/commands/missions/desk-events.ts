import type { EventOf } from '../../events/catalog/define.js';
import type { deskEvents } from '../../events/missions/index.js';

/** Every event of a project's missions stream, typed by its catalog definition. */
export type DeskEvent = EventOf<(typeof deskEvents)[number]>;
export type DeskEventOf<T extends DeskEvent['type']> = Extract<DeskEvent, { type: T }>;
