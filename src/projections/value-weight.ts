/**
 * About how many bytes of heap a decoded read-model value holds: what the engine's model cache
 * counts against its bound. Values are plain data (objects, arrays, strings, numbers, booleans,
 * bytes), as msgpack decodes them. The figures are V8's on a 64-bit build without pointer
 * compression (Node's), rounded: a string's header and its one-byte characters, an object's
 * header and one slot per property (property names are shared, so not counted), an array's
 * header and one slot per element, a heap number. An estimate, not an account: it only has
 * to grow as the heap does, so a bound in bytes holds about that many.
 */
export const weigh = (value: unknown): number => {
  switch (typeof value) {
    case 'string':
      return 24 + value.length;
    case 'number':
      return 16;
    case 'object':
      return value === null ? 0 : weighObject(value);
    default:
      return 0;
  }
};

const weighObject = (value: object): number => {
  if (Array.isArray(value)) {
    let bytes = 32 + 8 * value.length;
    for (const item of value) bytes += weigh(item);
    return bytes;
  }
  if (ArrayBuffer.isView(value)) return 96 + value.byteLength;
  let bytes = 56;
  for (const key in value) bytes += 16 + weigh((value as Record<string, unknown>)[key]);
  return bytes;
};
