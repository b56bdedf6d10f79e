import { uuidv7 } from 'uuidv7';

/** Event ids sort by creation time (UUIDv7), so an id alone orders events roughly in time. */
export const newEventId = (): string => `evt_${uuidv7()}`;

export const newId = (prefix: string): string => `${prefix}_${uuidv7()}`;
