/*
 * How deep a JSON-RPC message nests, read before it is parsed. JSON.parse itself copes with any
 * depth, but what follows it (the SDK's schemas, JSON.stringify, our own walks) recurses: an
 * `initialize` whose capabilities nest 100,000 deep answered HTTP 500 and left a stdio server
 * answering nothing (issue 28). No MCP message needs more than a few levels; anything deeper
 * than MAX_JSON_DEPTH is refused as an invalid request, and the connection goes on.
 * Imports nothing: the early stdio path (stdio-early.ts) uses it before anything loads.
 */

/** The deepest nesting of objects and arrays a message may have. */
export const MAX_JSON_DEPTH = 100;

export const TOO_DEEP_CODE = -32600;
export const TOO_DEEP_MESSAGE = `Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x7b, 0x5b]); // { [
const CLOSE = new Set([0x7d, 0x5d]); // } ]
const COLON = 0x3a;
const COMMA = 0x2c;
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** an id longer than this is not echoed (null instead) */
const MAX_ID_TEXT = 256;

type Expect = 'key' | 'colon' | 'value' | 'other';

/**
 * Scans one JSON text, piece by piece (a stdio line arrives in chunks): whether it nests deeper
 * than the limit, and the top-level `id`, so a refusal can name the request it answers. Holds
 * no more of the text than an id's.
 */
export class JsonDepthScan {
  readonly #max: number;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #expect: Expect = 'other';
  #key: string | undefined;
  /** the raw text of a depth-1 key, or of the top-level id's value, while it is read */
  #raw: string | undefined;
  #rawIsKey = false;
  #id: string | number | null = null;
  tooDeep = false;

  constructor(max = MAX_JSON_DEPTH) {
    this.#max = max;
  }

  /** The request's id as read so far: a string or number at the top level, else null. */
  get id(): string | number | null {
    return this.#id;
  }

  feed(text: string): this {
    for (let i = 0; i < text.length; i++) this.#step(text.charCodeAt(i), text[i]!);
    return this;
  }

  /** Call at the end of the text: a number id has no closing quote to end it. */
  end(): this {
    this.#endScalar();
    return this;
  }

  #step(code: number, char: string): void {
    if (this.#inString) {
      this.#keep(char);
      if (this.#escaped) this.#escaped = false;
      else if (code === BACKSLASH) this.#escaped = true;
      else if (code === QUOTE) this.#endString();
      return;
    }
    if (code === QUOTE) return this.#startString();
    if (OPEN.has(code)) {
      this.#endScalar();
      if (this.#depth === 1 && this.#expect === 'value') this.#expect = 'other';
      this.#depth++;
      if (this.#depth > this.#max) this.tooDeep = true;
      if (this.#depth === 1) this.#expect = code === 0x7b ? 'key' : 'other';
    } else if (CLOSE.has(code)) {
      this.#endScalar();
      this.#depth--;
    } else if (code === COLON) {
      if (this.#depth === 1 && this.#expect === 'colon') this.#expect = 'value';
    } else if (code === COMMA) {
      this.#endScalar();
      if (this.#depth === 1) this.#expect = 'key';
    } else if (SPACE.has(code)) this.#endScalar();
    else if (this.#depth === 1 && this.#expect === 'value' && this.#key === 'id') {
      this.#raw ??= '';
      this.#keep(char);
    }
  }

  #keep(char: string): void {
    if (this.#raw !== undefined && this.#raw.length <= MAX_ID_TEXT) this.#raw += char;
  }

  #startString(): void {
    this.#inString = true;
    if (this.#depth !== 1) return;
    if (this.#expect === 'key') {
      this.#raw = '"';
      this.#rawIsKey = true;
    } else if (this.#expect === 'value' && this.#key === 'id') {
      this.#raw = '"';
      this.#rawIsKey = false;
    }
  }

  #endString(): void {
    this.#inString = false;
    if (this.#raw === undefined) return;
    const value = this.#decode(this.#raw);
    this.#raw = undefined;
    if (this.#rawIsKey) {
      this.#key = typeof value === 'string' ? value : undefined;
      this.#expect = 'colon';
    } else {
      this.#id = typeof value === 'string' ? value : null;
      this.#expect = 'other';
    }
  }

  /** A number (or `null`, `true`…) as the id's value ends at a delimiter. */
  #endScalar(): void {
    if (this.#raw === undefined || this.#inString) return;
    const value = this.#decode(this.#raw);
    this.#raw = undefined;
    this.#id = typeof value === 'number' ? value : null;
    this.#expect = 'other';
  }

  #decode(raw: string): unknown {
    if (raw.length > MAX_ID_TEXT) return undefined;
    try {
      return JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
}

/** Whether a whole JSON text nests deeper than the limit, and the id it names. */
export const scanJsonDepth = (text: string, max = MAX_JSON_DEPTH): JsonDepthScan =>
  new JsonDepthScan(max).feed(text).end();

/** The JSON-RPC error a too-deep request gets, as a line of the stdio wire. */
export const tooDeepLine = (id: string | number | null): string =>
  `${JSON.stringify({ jsonrpc: '2.0', id, error: { code: TOO_DEEP_CODE, message: TOO_DEEP_MESSAGE } })}\n`;
