import { Option } from 'commander';
import { DEFAULT_SURFACES } from '../../mcp/surfaces/index.js';
import { registry } from '../registry.js';

/** `--surface`, shared by `mcp` and `serve`. */
export const surfaceOption = (): Option =>
  new Option(
    '--surface <surfaces>',
    `surfaces to serve, comma-separated, each as name or name:tier (known: ${registry()
      .surfaces.map((s) => s.name)
      .join(', ')})`,
  )
    .env('INTENTLOG_SURFACE')
    .default(DEFAULT_SURFACES);

/**
 * `--project-root DIR` (repeatable), shared by `mcp` and `serve`: directories under which an
 * actor may name a project directory (docs/missions.md, "Project directories").
 */
export const projectRootOption = (): Option =>
  new Option(
    '--project-root <dir>',
    'let actors name project directories under this one (repeatable; the local user names any)',
  ).argParser((value: string, previous: string[] = []) => [...previous, value]);

/**
 * `--read-only`, shared by `mcp` and `serve`: only tools that change nothing (`readOnlyHint`)
 * are listed, and a call to any other is refused before it runs (docs/authorization.md).
 */
export const readOnlyOption = (): Option =>
  new Option(
    '--read-only',
    'list only tools that change nothing (readOnlyHint); refuse every other call',
  );
