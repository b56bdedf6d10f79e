import { readFileSync } from 'node:fs';
import { scanJsonDepth } from './json-depth.js';

/*
 * The answer to a 2025-era `initialize`, composed without the MCP SDK, zod or any surface:
 * `intentlog mcp` gives it from a table written at build time (early-initialize-table.ts) while
 * the server it describes is still loading. Imports nothing but node:fs and json-depth.ts (which
 * imports nothing), on purpose.
 */

/** One surface as `initialize` shows it: what the full server says when it serves it alone. */
export type EarlySurface = {
  name: string;
  tiers: string[];
  defaultTier: string;
  /** the surface's part of the server's instructions */
  instructions: string;
  /** by tier: the server's capabilities when serving this surface alone at that tier */
  capabilities: Record<string, Record<string, unknown>>;
  /** surfaces that define a tool, prompt or resource this one does (never served together) */
  clashes: string[];
};

export type EarlyTable = {
  serverInfo: Record<string, unknown>;
  /** what `--surface` defaults to */
  defaultSpec: string;
  /** the head of the server's instructions, before each surface's part */
  envelope: string;
  /** protocol versions a client that asks for them gets; any other gets `fallback` */
  versions: string[];
  fallback: string;
  surfaces: EarlySurface[];
};

export type InitializeResult = {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  serverInfo: Record<string, unknown>;
  instructions: string;
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The SDK merges capabilities key by key (`registerCapabilities`); so do these. */
const merge = (a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const old = out[key];
    out[key] = isObject(old) && isObject(value) ? merge(old, value) : value;
  }
  return out;
};

/**
 * The surfaces `--surface` names, in its order, or undefined for anything the full server
 * would refuse (an unknown name or tier, a name twice, two that clash): that one answers.
 */
export type EarlyChoice = { surface: EarlySurface; tier: string };

export const selectEarly = (table: EarlyTable, spec: string): EarlyChoice[] | undefined => {
  const items = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const chosen: EarlyChoice[] = [];
  for (const item of items) {
    const [name, given, ...rest] = item.split(':').map((s) => s.trim());
    const surface = table.surfaces.find((s) => s.name === name);
    const tier = given ?? surface?.defaultTier ?? '';
    if (!surface || rest.length > 0 || !surface.tiers.includes(tier)) return undefined;
    const taken = (c: EarlyChoice) => c.surface.name === name || c.surface.clashes.includes(name!);
    if (chosen.some(taken)) return undefined;
    chosen.push({ surface, tier });
  }
  return chosen.length > 0 ? chosen : undefined;
};

/** What the full server answers to `initialize` asking for `requested`, serving `chosen`. */
export const earlyAnswer = (
  table: EarlyTable,
  chosen: readonly EarlyChoice[],
  requested: unknown,
): InitializeResult => ({
  protocolVersion:
    typeof requested === 'string' && table.versions.includes(requested)
      ? requested
      : table.fallback,
  capabilities: chosen.reduce<Record<string, unknown>>(
    (all, { surface, tier }) => merge(all, surface.capabilities[tier] ?? {}),
    {},
  ),
  serverInfo: table.serverInfo,
  instructions: [table.envelope, ...chosen.map((c) => c.surface.instructions)].join('\n\n'),
});

/**
 * The legacy `initialize` request a line holds, or undefined: not JSON, another method, or a
 * request that carries `_meta` (a 2026-era envelope claim is the SDK's to judge).
 */
export const legacyInitialize = (
  line: string,
): { id: string | number; protocolVersion: unknown } | undefined => {
  // too deep for the full server: left to it, whose stdio guard refuses it (json-depth.ts)
  if (scanJsonDepth(line).tooDeep) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(message) || message.jsonrpc !== '2.0' || message.method !== 'initialize')
    return undefined;
  const { id, params } = message;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  if (!isObject(params) || params._meta !== undefined || !isObject(params.capabilities))
    return undefined;
  const client = params.clientInfo;
  if (typeof params.protocolVersion !== 'string' || !isObject(client)) return undefined;
  if (typeof client.name !== 'string' || typeof client.version !== 'string') return undefined;
  return { id, protocolVersion: params.protocolVersion };
};

/** Where the build writes the table: beside this module in dist/ (absent under tsx). */
export const EARLY_TABLE_FILE = 'early-initialize.json';

/** The table the build wrote, or undefined (running from source, or an unreadable file). */
export const readEarlyTable = (): EarlyTable | undefined => {
  try {
    const text = readFileSync(new URL(`./${EARLY_TABLE_FILE}`, import.meta.url), 'utf8');
    return JSON.parse(text) as EarlyTable;
  } catch {
    return undefined;
  }
};
