import type { z } from 'zod';

type Data = Record<string, unknown>;

/**
 * One event type: a zod schema per version (index 0 is version 1) and an upcaster from each
 * version to the next. Readers always see the last version; stored bytes are never rewritten.
 */
export type EventDefinition<Type extends string = string, Latest extends Data = Data> = {
  type: Type;
  versions: readonly z.ZodType<Data>[];
  upcasters: readonly ((data: Data) => Data)[];
  /** phantom: the data type of the latest version */
  readonly latest?: Latest;
};

export const defineEvent = <Type extends string, S extends z.ZodType<Data>>(
  type: Type,
  schema: S,
): EventDefinition<Type, z.infer<S>> => ({ type, versions: [schema], upcasters: [] });

/** Adds a version: `upcast` turns the previous version's data into the new schema's. */
export const addVersion = <Type extends string, Old extends Data, S extends z.ZodType<Data>>(
  def: EventDefinition<Type, Old>,
  schema: S,
  upcast: (data: Old) => z.infer<S>,
): EventDefinition<Type, z.infer<S>> => ({
  type: def.type,
  versions: [...def.versions, schema],
  upcasters: [...def.upcasters, upcast as (data: Data) => Data],
});

/** The event value a decider emits for a definition (Emmett's Event shape). */
export type EventOf<D> =
  D extends EventDefinition<infer T, infer L>
    ? { type: T; data: L; metadata?: { seal?: string } }
    : never;

/** The union of the events of a list of definitions (a context's events of one stream). */
export type EventsOf<L extends readonly unknown[]> = { [K in keyof L]: EventOf<L[K]> }[number];
