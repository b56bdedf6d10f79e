import { Option, type Command } from 'commander';
import { SYSTEM, type Principal } from '../../commands/principal.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../../mcp/serve.js';
import { signIn } from '../../web/project/sign-in.js';
import { action, appCommand, note, out, withApp, type AppFlags } from '../options.js';

type OpenFlags = AppFlags & { actor?: string; url: string };

/** The web view's base URL of a `serve` on this machine. */
export const webBase = (url: string): string => url.replace(/\/mcp\/?$/, '').replace(/\/$/, '');

/**
 * `intentlog open`: prints a one-time sign-in link for the web view of the running `serve`.
 * The code goes through the log, so this process and the server need not be the same one.
 */
export const openCommand = (): Command =>
  appCommand('open', 'print a one-time sign-in link for the web view (intentlog serve)')
    .addOption(new Option('--actor <id>', 'sign in as this actor (default: SYSTEM)'))
    .addOption(
      new Option('--url <url>', 'where `intentlog serve` listens').default(
        `http://${DEFAULT_HOST}:${DEFAULT_PORT}`,
      ),
    )
    .action(
      action(async (flags: OpenFlags) => {
        const principal: Principal =
          flags.actor === undefined ? SYSTEM : { kind: 'actor', actor_id: flags.actor };
        await withApp(flags, async (app) => {
          const { code, expiresAt } = await signIn(app).issueCode(principal);
          await out(`${webBase(flags.url)}/signin?code=${code}\n`);
          note(`one use, until ${expiresAt}, as ${flags.actor ?? 'SYSTEM'}`);
        });
      }),
    );
