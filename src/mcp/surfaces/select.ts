import type { AnyTool, Surface } from '../tool.js';

/** A surface chosen to be served, at one of its tiers. */
export type SelectedSurface = { surface: Surface; tier: string };

/**
 * The tools a server lists of one selected surface: those of its tier and the tiers below, and
 * under `--read-only` only those whose `readOnlyHint` is true (tools that change nothing).
 */
export const toolsServed = ({ surface, tier }: SelectedSurface, readOnly = false): AnyTool[] => {
  const rank = surface.tiers.indexOf(tier);
  return surface.tools.filter(
    (t) =>
      surface.tiers.indexOf(t.tier) <= rank && (!readOnly || t.annotations.readOnlyHint === true),
  );
};

/** Why a server refuses to start: a bad `--surface`, a clash, or a malformed definition. */
export class SurfaceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SurfaceError';
  }
}

const TOOL_NAME = /^[a-z0-9_]+$/;
/** Prompts may also use hyphens, as the contracts name them (`spec-my-idea`). */
const PROMPT_NAME = /^[a-z0-9_-]+$/;

const isStrictObject = (schema: unknown): boolean => {
  const def = (schema as { def?: { type?: string; catchall?: { def?: { type?: string } } } }).def;
  return def?.type === 'object' && def.catchall?.def?.type === 'never';
};

/** Definition rules every surface obeys; checked at start so a bad surface never serves. */
export const checkSurface = (surface: Surface): void => {
  const fail = (what: string) => {
    throw new SurfaceError(`surface "${surface.name}": ${what}`);
  };
  if (!surface.tiers.includes(surface.defaultTier))
    fail(`default tier "${surface.defaultTier}" is not one of its tiers`);
  const seen = new Set<string>();
  for (const tool of surface.tools) {
    if (!TOOL_NAME.test(tool.name)) fail(`tool name "${tool.name}" is not [a-z0-9_]+`);
    if (seen.has(tool.name)) fail(`tool "${tool.name}" is defined twice`);
    seen.add(tool.name);
    if (!tool.description.trim()) fail(`tool "${tool.name}" has no description`);
    if (!surface.tiers.includes(tool.tier)) fail(`tool "${tool.name}" has unknown tier`);
    if (!isStrictObject(tool.input)) fail(`tool "${tool.name}" input is not a z.strictObject`);
  }
  for (const prompt of surface.prompts ?? []) {
    if (!PROMPT_NAME.test(prompt.name)) fail(`prompt name "${prompt.name}" is not [a-z0-9_-]+`);
    if (!prompt.description.trim()) fail(`prompt "${prompt.name}" has no description`);
  }
  for (const resource of surface.resources ?? [])
    if (!resource.description.trim()) fail(`resource "${resource.uri}" has no description`);
};

type Name = { kind: string; name: string };

const namesOf = (surface: Surface): Name[] => [
  ...surface.tools.map((t) => ({ kind: 'tool', name: t.name })),
  ...(surface.prompts ?? []).map((p) => ({ kind: 'prompt', name: p.name })),
  ...(surface.resources ?? []).map((r) => ({ kind: 'resource', name: r.uri })),
];

/**
 * Two surfaces that define the same tool (or prompt, or resource URI) cannot be served together:
 * a client could not tell which one it calls. Checked on the whole definitions, not the tiers
 * served, so that whether two surfaces combine never depends on a tier.
 */
export const assertNoClash = (surfaces: readonly Surface[]): void => {
  const owner = new Map<string, string>();
  for (const surface of surfaces)
    for (const { kind, name } of namesOf(surface)) {
      const key = `${kind}:${name}`;
      const other = owner.get(key);
      if (other !== undefined)
        throw new SurfaceError(
          `surfaces "${other}" and "${surface.name}" both define the ${kind} "${name}"; ` +
            'they cannot be served together (serve them from two servers)',
        );
      owner.set(key, surface.name);
    }
};

const parseOne = (item: string, registry: ReadonlyMap<string, Surface>): SelectedSurface => {
  const [name = '', tier, ...rest] = item.split(':').map((s) => s.trim());
  const surface = registry.get(name);
  if (!surface || rest.length > 0)
    throw new SurfaceError(
      `unknown surface "${item}"; known: ${[...registry.keys()].join(', ')} ` +
        '(as name or name:tier)',
    );
  const chosen = tier ?? surface.defaultTier;
  if (!surface.tiers.includes(chosen))
    throw new SurfaceError(
      `surface "${name}" has no tier "${chosen}"; its tiers: ${surface.tiers.join(', ')}`,
    );
  return { surface, tier: chosen };
};

/**
 * Parses `--surface a,b:tier` against a registry: each item is a surface name, optionally with
 * a tier. Refuses unknown names and tiers, duplicates, clashes and malformed definitions.
 */
export const selectSurfaces = (
  spec: string,
  registry: ReadonlyMap<string, Surface>,
): SelectedSurface[] => {
  const items = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new SurfaceError('no surface named');
  const selected = items.map((item) => parseOne(item, registry));
  const names = selected.map((s) => s.surface.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new SurfaceError(`surface "${twice}" is named twice`);
  for (const { surface } of selected) checkSurface(surface);
  assertNoClash(selected.map((s) => s.surface));
  return selected;
};
