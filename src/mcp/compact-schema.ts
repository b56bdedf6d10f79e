import { UNADVERTISED } from './unadvertised.js';

/**
 * JSON Schema as zod writes it, made smaller without losing a field or a constraint a client
 * can act on (tools/list is read into every model's context on every session):
 *
 * - no `$schema` (MCP says tool schemas are 2020-12 unless they say otherwise);
 * - no `minimum`/`maximum` that only restate JavaScript's safe-integer range (`.int()`);
 * - `anyOf: [X, {type: 'null'}]` with X of one plain type becomes X with `type: [t, 'null']`;
 * - no `type` beside an `enum` or `const` whose values are all of that type (equality says it);
 * - no `propertyNames: {type: 'string'}` or `additionalProperties: {}` (they allow anything);
 * - a string of one character class with length bounds (`^[A-Za-z0-9._:/-]+$`, 1 to 128, every
 *   id) says the bounds in its pattern: `^[…]{1,128}$`, the same strings;
 * - a UUID is `format: uuid` alone, without the 190-character pattern zod writes beside it (the
 *   server checks the exact form; a client has the format to act on);
 * - a property marked unadvertised (unadvertised.ts) is not listed at all: another spelling of
 *   an argument the tool lists, accepted by the server and named in the surface's doc;
 * - in output schemas (`output: true`), no descriptions, no `additionalProperties: false` and
 *   no `required`: hosts validate results with them but show the model the result itself,
 *   never this schema, and the server checks its own answers against the full zod schema
 *   (required fields included) before sending them. Every field stays, with its type and enum.
 *
 * No `$ref`/`$defs`: some hosts resolve none inside tool schemas (docs/decisions.md).
 */
type Json = Record<string, unknown>;

const SAFE = Number.MAX_SAFE_INTEGER;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `anyOf: [X, null]` as one schema with a nullable type, when X has one plain `type`. */
const mergeNullable = (schema: Json): Json => {
  const anyOf = schema.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return schema;
  const nullAt = anyOf.findIndex(
    (s) => isObject(s) && s.type === 'null' && Object.keys(s).length === 1,
  );
  if (nullAt < 0) return schema;
  const other = anyOf[1 - nullAt] as unknown;
  const { anyOf: _dropped, ...rest } = schema;
  // an enum whose type went already (typeImplied): null joins its values
  if (isObject(other) && !('type' in other) && Array.isArray(other.enum))
    return { ...other, ...rest, enum: [...(other.enum as unknown[]), null] };
  if (!isObject(other) || typeof other.type !== 'string') return schema;
  const merged: Json = { ...other, ...rest, type: [other.type, 'null'] };
  // an enum must list null too, or null would fail it
  if (Array.isArray(other.enum)) merged.enum = [...(other.enum as unknown[]), null];
  if ('const' in other) return schema;
  return merged;
};

/**
 * `type` beside an `enum` or `const` whose values all have that type says nothing more (JSON
 * Schema checks the values by equality), so it goes; a nullable enum already lists `null`.
 */
const typeImplied = (schema: Json): Json => {
  const values = Array.isArray(schema.enum)
    ? schema.enum
    : 'const' in schema
      ? [schema.const]
      : undefined;
  if (!values || !('type' in schema)) return schema;
  const types = new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
  const typeOf = (v: unknown) =>
    v === null
      ? 'null'
      : Number.isInteger(v)
        ? types.has('integer')
          ? 'integer'
          : 'number'
        : typeof v;
  if (!values.every((v) => types.has(typeOf(v)))) return schema;
  const { type: _implied, ...rest } = schema;
  return rest;
};

const isEmpty = (v: unknown) => isObject(v) && Object.keys(v).length === 0;

/** Whether a keyword says nothing a client needs (see above). */
const dropped = (key: string, v: unknown, output: boolean): boolean =>
  key === '$schema' ||
  (key === 'minimum' && v === -SAFE) ||
  (key === 'maximum' && v === SAFE) ||
  (key === 'propertyNames' && isObject(v) && v.type === 'string' && Object.keys(v).length === 1) ||
  (key === 'additionalProperties' && (isEmpty(v) || (output && v === false))) ||
  (output && key === 'description' && typeof v === 'string') ||
  (output && key === 'required' && Array.isArray(v));

const ONE_CLASS = /^\^(\[[^\]]+\])\+\$$/;

/** `pattern: ^[…]+$` with `minLength`/`maxLength` as one pattern `^[…]{min,max}$`. */
const boundsInPattern = (schema: Json): Json => {
  const { pattern, minLength, maxLength, ...rest } = schema;
  const match = typeof pattern === 'string' ? ONE_CLASS.exec(pattern) : null;
  if (!match || typeof maxLength !== 'number' || (minLength ?? 1) !== 1) return schema;
  // `+` already asks for one character; a class matches one code point, as lengths count
  return { ...rest, pattern: `^${match[1]!}{1,${maxLength}}$` };
};

/** `format: uuid` says what zod's pattern beside it says, for a client. */
const uuidFormatOnly = (schema: Json): Json => {
  if (schema.format !== 'uuid' || typeof schema.pattern !== 'string') return schema;
  const { pattern: _same, ...rest } = schema;
  return rest;
};

/** The names of an object schema's properties that are not advertised. */
const unadvertisedOf = (node: Json): Set<string> =>
  new Set(
    isObject(node.properties)
      ? Object.entries(node.properties)
          .filter(([, p]) => isObject(p) && UNADVERTISED in p)
          .map(([k]) => k)
      : [],
  );

export const compactSchema = (value: unknown, options: { output?: boolean } = {}): unknown => {
  const output = options.output ?? false;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    const hidden = unadvertisedOf(node);
    const out: Json = {};
    for (const [key, v] of Object.entries(node)) {
      if (dropped(key, v, output)) continue;
      // property names are names, not schemas: only their values are walked
      out[key] =
        key === 'properties' && isObject(v)
          ? Object.fromEntries(
              Object.entries(v)
                .filter(([k]) => !hidden.has(k))
                .map(([k, p]) => [k, walk(p)]),
            )
          : key === 'required' && Array.isArray(v)
            ? v.filter((k) => !hidden.has(k as string))
            : walk(v);
    }
    return uuidFormatOnly(boundsInPattern(typeImplied(mergeNullable(out))));
  };
  return walk(value);
};
