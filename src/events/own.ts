/**
 * Records keyed by caller text (actor ids, reviewer ids, mission, lease and test ids, a filter
 * word) are plain objects, and a plain object answers `record['toString']` with what it inherits
 * from Object.prototype: a function where an entry was expected (issue 28 found `toString` as an
 * actor id answering `internal`). Every such lookup goes through `own`, every assignment through
 * `setOwn`, so only the record's own entries count and `__proto__` stays an entry (a spread
 * with a computed key, `{ ...record, [key]: value }`, already makes an own entry).
 */

/** The entry `record` holds under `key` as its own; never one inherited from Object.prototype. */
export const own = <T>(
  record: Readonly<Record<string, T>> | undefined,
  key: string,
): T | undefined => (record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined);

/** Sets an own entry, also for `__proto__` (an assignment would set the prototype instead). */
export const setOwn = <T>(record: Record<string, T>, key: string, value: T): void => {
  Object.defineProperty(record, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
};
