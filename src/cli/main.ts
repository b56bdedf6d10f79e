#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { auditCommand } from './commands/audit.js';
import { exportCommand } from './commands/export.js';
import { logCommand } from './commands/log.js';
import { mcpCommand } from './commands/mcp.js';
import { migrateCommand } from './commands/migrate.js';
import { projectionsCommand } from './commands/projections.js';
import { serveCommand } from './commands/serve.js';
import { statusCommand } from './commands/status.js';
import { tokenCommand } from './commands/token.js';
import { useRegistry } from './registry.js';
import { modules, pagesOf, surfacesOf } from '../modules/index.js';

const { version } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

// `intentlog log | head` closes stdout early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

useRegistry({ modules, surfaces: surfacesOf(modules), pages: pagesOf(modules) });

/**
 * The `intentlog` binary. Every kernel command is one file under commands/; a context's own
 * commands (`sync`, `founder`, `hook`, …) come with its module (src/modules).
 */
const program = new Command('intentlog')
  .description('a local-first, event-sourced ledger of intent and work for coding agents')
  .version(version)
  .addCommand(logCommand())
  .addCommand(exportCommand())
  .addCommand(projectionsCommand())
  .addCommand(auditCommand())
  .addCommand(tokenCommand())
  .addCommand(mcpCommand())
  .addCommand(serveCommand())
  .addCommand(migrateCommand())
  .addCommand(statusCommand());
for (const command of modules.flatMap((m) => m.cli ?? [])) program.addCommand(command());

await program.parseAsync(process.argv);
