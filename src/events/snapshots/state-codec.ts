import { decode, encode } from '../codec.js';

/**
 * The bytes of a folded state, and back: what a snapshot stores. A state is plain data plus the
 * shapes deciders fold into (Map, Set, bigint, Uint8Array, Date, undefined members) and classes
 * registered here (a persistent map, a layered map). Anything else (a function, an unregistered
 * class) is refused with `UnsnapshottableError`: a snapshot is then not written, never written
 * lossy. msgpack carries the result; each non-plain value travels as a tagged object, so the
 * state decoded is deep-equal to the state encoded, prototypes included.
 */
export class UnsnapshottableError extends Error {
  readonly code = 'unsnapshottable';
}

/** How a registered class becomes plain data and back (its entries, its fields). */
export type StateClass<T> = {
  /** stable name in stored snapshots: renaming it orphans them (they are then folded again) */
  tag: string;
  is(value: unknown): value is T;
  toData(value: T): unknown;
  fromData(data: unknown): T;
};

const TAG = '\u0000';
type Tagged = { [TAG]: string; v?: unknown };

const classes = new Map<string, StateClass<unknown>>();

/** Registers a class states may hold; its tag names it in every stored snapshot. */
export const registerStateClass = <T>(codec: StateClass<T>): void => {
  const known = classes.get(codec.tag);
  if (known && known !== codec) throw new TypeError(`state class ${codec.tag} registered twice`);
  classes.set(codec.tag, codec as StateClass<unknown>);
};

const tagged = (tag: string, v?: unknown): Tagged =>
  v === undefined ? { [TAG]: tag } : { [TAG]: tag, v };

const plainProto = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

const toWire = (value: unknown): unknown => {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return value;
    case 'undefined':
      return tagged('undefined');
    case 'bigint':
      return tagged('bigint', value.toString());
    case 'object':
      return value === null ? null : objectToWire(value);
    default:
      throw new UnsnapshottableError(`a state cannot hold a ${typeof value}`);
  }
};

const objectToWire = (value: object): unknown => {
  if (Array.isArray(value)) return value.map(toWire);
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return tagged('u8', Buffer.from(value));
  if (value instanceof Map)
    return tagged(
      'map',
      [...value].map(([k, v]) => [toWire(k), toWire(v)]),
    );
  if (value instanceof Set) return tagged('set', [...value].map(toWire));
  if (value instanceof Date) return tagged('date', value.getTime());
  for (const codec of classes.values())
    if (codec.is(value)) return tagged(`class:${codec.tag}`, toWire(codec.toData(value)));
  if (!plainProto(value))
    throw new UnsnapshottableError(
      `a state holds an unregistered ${value.constructor?.name ?? 'object'}`,
    );
  const out: Record<string, unknown> = {};
  const nullProto = Object.getPrototypeOf(value) === null;
  // an object whose own keys could be read as a tag travels as its entries
  if (nullProto || TAG in value)
    return tagged(
      nullProto ? 'nullobj' : 'obj',
      Object.entries(value).map(([k, v]) => [k, toWire(v)]),
    );
  for (const [k, v] of Object.entries(value)) out[k] = toWire(v);
  return out;
};

// The decoded tree is this codec's own: plain objects and arrays are restored in place.
const fromWire = (value: unknown): unknown => {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = fromWire(value[i]);
    return value;
  }
  if (value instanceof Uint8Array) return value;
  if (TAG in value) return fromTagged(value as Tagged);
  const object = value as Record<string, unknown>;
  for (const k in object) {
    const member = object[k];
    if (member !== null && typeof member === 'object') object[k] = fromWire(member);
  }
  return object;
};

const entries = (v: unknown) =>
  (v as [unknown, unknown][]).map(([k, x]) => [fromWire(k), fromWire(x)] as const);

const fromTagged = ({ [TAG]: tag, v }: Tagged): unknown => {
  switch (tag) {
    case 'undefined':
      return undefined;
    case 'bigint':
      return BigInt(v as string);
    case 'u8': {
      const b = v as Uint8Array;
      return new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    }
    case 'map':
      return new Map(entries(v));
    case 'set':
      return new Set((v as unknown[]).map(fromWire));
    case 'date':
      return new Date(v as number);
    case 'obj':
      return Object.fromEntries(entries(v));
    case 'nullobj':
      return Object.assign(Object.create(null) as object, Object.fromEntries(entries(v)));
  }
  const codec = tag.startsWith('class:') ? classes.get(tag.slice(6)) : undefined;
  if (!codec) throw new UnsnapshottableError(`a snapshot holds an unknown ${tag}`);
  return codec.fromData(fromWire(v));
};

export const StateCodec = {
  /** Throws UnsnapshottableError for a state it could not give back whole. */
  encode: (state: unknown): Buffer => encode(toWire(state)),
  decode: <S>(bytes: Uint8Array): S => fromWire(decode(bytes)) as S,
};
