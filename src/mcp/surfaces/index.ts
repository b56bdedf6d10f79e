import type { Surface } from '../tool.js';
import { selectSurfaces, type SelectedSurface } from './select.js';
import { governanceSurface } from './governance.js';
import { systemSurface } from './system.js';

export { SurfaceError, assertNoClash, checkSurface, type SelectedSurface } from './select.js';

/** Every surface this build can serve, by name. Add a surface here to make it servable. */
export const surfaces: ReadonlyMap<string, Surface> = new Map(
  [systemSurface, governanceSurface].map((s) => [s.name, s]),
);

/**
 * What `intentlog mcp` and `intentlog serve` serve without `--surface`: the one complete
 * contract surface, so a person who pastes the printed snippet can do real work at once.
 */
export const DEFAULT_SURFACES = 'governance,system';

/** Resolves `--surface` (e.g. `governance,intent` or `storymap-local:core`) against the registry. */
export const resolveSurfaces = (spec: string = DEFAULT_SURFACES): SelectedSurface[] =>
  selectSurfaces(spec, surfaces);
