import type { Surface } from '../tool.js';
import { selectSurfaces, type SelectedSurface } from './select.js';

export {
  SurfaceError,
  assertNoClash,
  checkSurface,
  toolsServed,
  type SelectedSurface,
} from './select.js';

/**
 * What `intentlog mcp` and `intentlog serve` serve at `/mcp` without `--surface`: the complete
 * contract surface every build has, so a person who pastes the printed snippet can work at once.
 */
export const DEFAULT_SURFACES = 'governance,system';

/** Resolves `--surface` (e.g. `governance,intent` or `storymap-local:core`) against the surfaces. */
export const resolveSurfaces = (
  available: readonly Surface[],
  spec: string = DEFAULT_SURFACES,
): SelectedSurface[] => selectSurfaces(spec, new Map(available.map((s) => [s.name, s])));
