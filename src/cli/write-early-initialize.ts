import { writeFileSync } from 'node:fs';
import { EARLY_TABLE_FILE } from '../mcp/early-initialize.js';
import { earlyTable } from '../mcp/early-initialize-table.js';
import { servedSurfaces } from '../modules/surfaces.js';

/*
 * A build step (`npm run build`): writes the table `intentlog mcp` answers `initialize` from
 * while its surfaces load, beside the module that reads it (dist/mcp/early-initialize.json).
 */
const target = new URL(`../mcp/${EARLY_TABLE_FILE}`, import.meta.url);
writeFileSync(target, `${JSON.stringify(await earlyTable(servedSurfaces), null, 1)}\n`);
