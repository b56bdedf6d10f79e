/**
 * HAI-MCP's clients send `null` for an optional argument they leave out (Python's `None`). On a
 * surface that says so (`Vocabulary.nullIsAbsent`), a `null` value of an object's key is the key
 * left out, at any depth of plain objects; an array's elements are left as they are (a `null`
 * there is an element, refused or not by the tool's own schema).
 */
export const withoutNulls = (value: unknown): unknown => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === null) continue;
    // an own property even for `__proto__`, as the arguments were parsed from JSON
    Object.defineProperty(out, key, {
      value: Array.isArray(field) ? field.map(objectsWithoutNulls) : withoutNulls(field),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
};

/** Inside an array, objects still lose their null keys; the array keeps every element. */
const objectsWithoutNulls = (element: unknown): unknown =>
  element === null ? element : withoutNulls(element);
