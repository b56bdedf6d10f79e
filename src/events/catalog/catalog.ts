import type { EventDefinition } from './define.js';

type Data = Record<string, unknown>;

export class CatalogError extends Error {
  readonly code = 'invalid_event';
}

/** The registry of event types one log accepts, with validation on append and upcast on read. */
export type Catalog = {
  has(type: string): boolean;
  currentVersion(type: string): number;
  /** Validates data against the latest schema; throws CatalogError naming the type. */
  validate(type: string, data: unknown): Data;
  /** Upcasts stored data of `version` to the latest; validates what it returns. */
  upcast(type: string, version: number, data: Data): Data;
  /** Validates stored data against the schema of its own version (audit of old records). */
  validateVersion(type: string, version: number, data: unknown): Data;
  types(): string[];
};

export const createCatalog = (definitions: readonly EventDefinition[]): Catalog => {
  const byType = new Map<string, EventDefinition>();
  for (const def of definitions) {
    if (byType.has(def.type)) throw new Error(`event type ${def.type} is declared twice`);
    byType.set(def.type, def);
  }
  const definition = (type: string): EventDefinition => {
    const def = byType.get(type);
    if (!def) throw new CatalogError(`unknown event type ${type}`);
    return def;
  };
  const parse = (def: EventDefinition, version: number, data: unknown): Data => {
    const schema = def.versions[version - 1];
    if (!schema) throw new CatalogError(`${def.type} has no schema version ${version}`);
    const parsed = schema.safeParse(data);
    if (!parsed.success)
      throw new CatalogError(
        `${def.type} v${version} does not match its schema: ${parsed.error.message}`,
      );
    return parsed.data;
  };
  return {
    has: (type) => byType.has(type),
    currentVersion: (type) => definition(type).versions.length,
    validate: (type, data) => {
      const def = definition(type);
      return parse(def, def.versions.length, data);
    },
    upcast: (type, version, data) => {
      const def = definition(type);
      let current = data;
      for (let v = version; v < def.versions.length; v++) current = def.upcasters[v - 1]!(current);
      return version === def.versions.length ? current : parse(def, def.versions.length, current);
    },
    validateVersion: (type, version, data) => parse(definition(type), version, data),
    types: () => [...byType.keys()],
  };
};

/** A catalog that accepts any event type as version 1, for store conformance tests. */
export const openCatalog: Catalog = {
  has: () => true,
  currentVersion: () => 1,
  validate: (_type, data) => data as Data,
  upcast: (_type, _version, data) => data,
  validateVersion: (_type, _version, data) => data as Data,
  types: () => [],
};
