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
