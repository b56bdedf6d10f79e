import { Command, Option } from 'commander';
import { SYSTEM, type Principal } from '../../commands/principal.js';
import { tokenCommands } from '../../commands/project/commands.js';
import type { TokenView } from '../../projections/index.js';
import { withProjectLog } from './log.js';
import { action, appCommand, cliId, note, out, withApp, type AppFlags } from '../options.js';

type CreateFlags = AppFlags & { system?: boolean; actor?: string; label?: string };

const principalOf = (flags: CreateFlags): Principal => {
  if (flags.actor !== undefined)
    return { kind: 'actor', actor_id: cliId('an actor id', flags.actor) };
  if (flags.system) return SYSTEM;
  throw new TypeError('name who the token is for: --system or --actor <id>');
};

const describePrincipal = (p: Principal): string =>
  p.kind === 'system' ? 'system' : `actor ${p.actor_id}`;

/**
 * Appends `token.issued` through the log alone (project/log.ts): scripts run `token create`
 * and wait for it. When a writer runs (`serve`, `mcp`), its tokens read model has the token
 * before the command answers; when none does, the next one folds it, and `serve`'s sign-in
 * waits for the log's head on a token it does not know yet (mcp/http/auth.ts).
 */
const create = (): Command =>
  appCommand('create', 'issue an access token; prints only the token, once, on stdout')
    .addOption(new Option('--system', 'a token for the system principal').conflicts('actor'))
    .addOption(new Option('--actor <id>', 'a token for this actor').conflicts('system'))
    .option('--label <label>', 'a note to recognise the token by in `token list`')
    .action(
      action(async (flags: CreateFlags) => {
        const principal = principalOf(flags);
        const issued = await withProjectLog(flags, async (log) => {
          const issued = await tokenCommands(log).issue(principal, flags.label ?? null, SYSTEM);
          if (log.role() === 'follower')
            await log.call('projections.waitFor', {
              position: issued.position,
              models: ['tokens'],
            });
          return issued;
        });
        await out(`${issued.token}\n`);
        note(`issued ${issued.token_id} for ${describePrincipal(principal)}`);
      }),
    );

// revoke and list wait for the tokens read model only: a process that became the writer on a
// long log must not wait for every other read model to catch up before it answers.
const revoke = (): Command =>
  appCommand('revoke', 'revoke an access token by its id')
    .argument('<token-id>', 'the id `token create` reported (tok_…)')
    .action(
      action(async (tokenId: string, flags: AppFlags) => {
        await withApp(flags, async (app) => {
          await app.waitFor(await app.tokens.revoke(tokenId, SYSTEM), ['tokens']);
          // a token a host got by signing in: its grant goes too, or the host would refresh
          const grant = (await app.tokens.list()).find((t) => t.token_id === tokenId)?.grant_id;
          const { oauth } = await import('../../app/project/oauth.js');
          if (grant) await oauth(app).revokeGrant(grant, SYSTEM);
          note(`revoked ${tokenId}${grant ? ` and its sign-in grant ${grant}` : ''}`);
        });
      }),
    );

const listLine = (t: TokenView): string =>
  [
    t.token_id,
    describePrincipal(t.principal),
    t.revoked_at
      ? `revoked ${t.revoked_at}`
      : t.expires_at
        ? `active until ${t.expires_at}`
        : 'active',
    `issued ${t.issued_at}`,
    t.label ?? '',
  ].join('\t');

const list = (): Command =>
  appCommand('list', 'list access tokens (never the tokens themselves)')
    .option('--json', 'one JSON object per line')
    .action(
      action(async (flags: AppFlags & { json?: boolean }) => {
        await withApp(flags, async (app) => {
          await app.waitFor(await app.log.head(), ['tokens']);
          const tokens = await app.tokens.list();
          const lines = flags.json
            ? tokens.map(({ token_hash: _hash, ...t }) => JSON.stringify(t))
            : tokens.map(listLine);
          await out(lines.map((l) => `${l}\n`).join(''));
        });
      }),
    );

export const tokenCommand = (): Command =>
  new Command('token')
    .description('issue, revoke and list access tokens (bearer tokens for `intentlog serve`)')
    .addCommand(create())
    .addCommand(revoke())
    .addCommand(list());
