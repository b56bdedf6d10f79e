import { Option, type Command } from 'commander';
import { corruptApp, isCorruptStore } from '../../app/corrupt-app.js';
import { defaultDataDir } from '../../app/data-dir.js';
import { allowProjectRoots } from '../../app/project/roots.js';
import { SYSTEM, type Principal } from '../../commands/principal.js';
import { stderrLogger } from '../../mcp/logger.js';
import { serveOverStdio } from '../../mcp/stdio.js';
import { resolveSurfaces } from '../../mcp/surfaces/index.js';
import { registry } from '../registry.js';
import { guardProcess } from '../guard.js';
import { action, appCommand, cliId, openFor, type AppFlags } from '../options.js';
import { stopSignal } from '../stop-signal.js';
import { projectRootOption, readOnlyOption, surfaceOption } from './mcp-shared.js';

type McpFlags = AppFlags & {
  surface: string;
  actor?: string;
  projectRoot?: string[];
  readOnly?: boolean;
};

const principalOf = (actor: string | undefined): Principal => {
  if (actor === undefined || actor === '') return SYSTEM;
  return { kind: 'actor', actor_id: cliId('an actor id', actor) };
};

/**
 * `intentlog mcp`: one MCP connection on stdin/stdout, for a client that starts the server
 * itself (Claude Code, Codex, Cursor). stdout carries only the protocol; logs go to stderr.
 */
export const mcpCommand = (): Command =>
  appCommand('mcp', 'serve MCP over stdio (the client starts this process)')
    .addOption(surfaceOption())
    .addOption(projectRootOption())
    .addOption(readOnlyOption())
    .addOption(
      new Option('--actor <id>', 'act as this actor (default: the local SYSTEM principal)').env(
        'INTENTLOG_ACTOR',
      ),
    )
    .action(
      action(async (flags: McpFlags) => {
        const selection = resolveSurfaces(registry().surfaces, flags.surface || undefined);
        const principal = principalOf(flags.actor);
        // a HAI-MCP client's configuration: its home is the data directory of the missions it
        // serves, unless --data-dir or INTENTLOG_HOME says otherwise
        const haiHome = process.env.HAI_HOME;
        if (!flags.dataDir && haiHome && selection.some((s) => s.surface.name === 'missions'))
          flags.dataDir = haiHome;
        const log = stderrLogger('intentlog-mcp');
        guardProcess(log);
        // The store opens and the read models catch up while the client initializes and lists
        // tools; a call waits for it (server.ts). A store that cannot open ends the process,
        // except a corrupt one: the connection stays, every call answers CORRUPT_LEDGER and
        // intent_status reports it (corrupt-app.ts), so the client learns why.
        const opening = openFor(flags);
        const app = opening.then(
          async ({ app: opened }) => {
            await allowProjectRoots(opened, flags.projectRoot ?? []);
            return opened;
          },
          (error: unknown) => {
            if (!isCorruptStore(error)) throw error;
            log.error({ problems: error.problems }, error.message);
            return corruptApp(flags.dataDir ?? defaultDataDir(), error);
          },
        );
        const failed = app.then(() => new Promise<never>(() => undefined));
        const readOnly = flags.readOnly ?? false;
        const connection = serveOverStdio({ app, selection, principal, log, readOnly });
        void app.then(
          (ready) =>
            log.info(
              { surfaces: selection.map((s) => s.surface.name), data: ready.dataDir },
              'serving MCP on stdio',
            ),
          () => undefined,
        );
        try {
          await Promise.race([connection.closed, stopSignal(), failed]);
        } finally {
          await connection.close();
          await opening.then(
            (opened) => opened.close(),
            () => undefined,
          );
        }
      }),
    );
