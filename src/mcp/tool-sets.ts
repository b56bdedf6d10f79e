import type { AnyTool } from './tool.js';

/**
 * A surface's smaller set (`--surface storymap:core`): the named tools get that tier, every other
 * keeps its own. A name the list holds that no tool has fails at load, so a renamed tool cannot
 * silently leave the set.
 */
export const withSet = (
  tools: readonly AnyTool[],
  set: string,
  names: readonly string[],
): AnyTool[] => {
  const known = new Set(tools.map((t) => t.name));
  const missing = names.filter((n) => !known.has(n));
  if (missing.length > 0)
    throw new Error(`set "${set}" names unknown tools: ${missing.join(', ')}`);
  const chosen = new Set(names);
  return tools.map((t) => (chosen.has(t.name) ? { ...t, tier: set } : t));
};
