import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Option, type Command } from 'commander';
import type { App } from '../../app/app.js';
import { allowProjectRoots } from '../../app/project/roots.js';
import { connectInfo } from '../../mcp/connect-info.js';
import { stderrLogger } from '../../mcp/logger.js';
import { packageVersion } from '../../mcp/server.js';
import {
  DEFAULT_HOST,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_PORT,
  serveOverHttp,
} from '../../mcp/serve.js';
import { resolveSurfaces } from '../../mcp/surfaces/index.js';
import { webView } from '../../web/routes.js';
import { cookieSecret, csrfToken } from '../../web/session.js';
import { signIn } from '../../web/project/sign-in.js';
import type { ConsentSession } from '../../mcp/oauth/routes.js';
import { registry } from '../registry.js';
import { guardProcess } from '../guard.js';
import { webBase } from './open.js';
import { action, appCommand, out, withApp, type AppFlags } from '../options.js';
import { stopSignal } from '../stop-signal.js';
import { projectRootOption, readOnlyOption, surfaceOption } from './mcp-shared.js';

type ServeFlags = AppFlags & {
  host: string;
  port: number;
  surface: string;
  stateful?: boolean;
  allowedHost?: string[];
  corsOrigin?: string[];
  maxBody: number;
  requireAuth?: boolean;
  projectRoot?: string[];
  readOnly?: boolean;
};

const integer = (min: number, max: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new TypeError(`not in ${min}..${max}`);
  return n;
};

const list = (value: string, previous: string[] = []): string[] => [
  ...previous,
  ...value.split(',').map((s) => s.trim()),
];

/** How a person runs this same intentlog, for the printed snippets. */
const thisCli = (): string[] => {
  const script = realpathSync(process.argv[1] ?? 'dist/cli/main.js');
  return script.endsWith('.js')
    ? ['node', script]
    : [process.execPath, ...process.execArgv, script];
};

/** The checkout this runs from, when it is one: its root is the intent plugin's marketplace. */
const checkoutInfo = (): { checkout?: string } => {
  const root = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');
  return existsSync(join(root, '.claude-plugin/marketplace.json')) ? { checkout: root } : {};
};

const dataArgs = (app: App): string[] =>
  app.dataDir === join(homedir(), '.intentlog') ? [] : ['--data-dir', app.dataDir];

/** The consent page's person: the web view's session, and the CSRF token its forms carry. */
export const webConsentSession =
  (app: App): ConsentSession =>
  async (request) => {
    const secret = cookieSecret(request);
    const session = secret ? await signIn(app).session(secret) : undefined;
    return session && secret
      ? { principal: session.principal, csrf: csrfToken(secret) }
      : undefined;
  };

/**
 * `intentlog serve`: MCP over Streamable HTTP at POST /mcp, for any number of clients, until
 * SIGTERM or SIGINT; then in-flight calls finish and the data closes cleanly.
 */
export const serveCommand = (): Command =>
  appCommand('serve', 'serve MCP over Streamable HTTP at POST /mcp (bearer tokens)')
    .addOption(new Option('--host <host>', 'address to listen on').default(DEFAULT_HOST))
    .addOption(
      new Option('--port <port>', 'port (0: any free one)')
        .argParser(integer(0, 65535))
        .default(DEFAULT_PORT),
    )
    .addOption(surfaceOption())
    .addOption(projectRootOption())
    .addOption(readOnlyOption())
    .option('--stateful', 'sessions (Mcp-Session-Id) instead of stateless JSON responses')
    .option(
      '--require-auth',
      'a token for every request, initialize and tools/list included (default: discovery is open)',
    )
    .addOption(
      new Option('--allowed-host <names>', 'also accept these Host/Origin names').argParser(list),
    )
    .addOption(
      new Option(
        '--cors-origin <origins>',
        'also let scripts of these web origins call /mcp and sign-in (default: loopback pages)',
      ).argParser(list),
    )
    .addOption(
      new Option('--max-body <bytes>', 'largest request body (larger: 413)')
        .argParser(integer(1024, 64 * 1024 * 1024))
        .default(DEFAULT_MAX_BODY_BYTES),
    )
    .action(
      action(async (flags: ServeFlags) => {
        const selection = resolveSurfaces(registry().surfaces, flags.surface || undefined);
        const log = stderrLogger('intentlog-serve');
        guardProcess(log);
        await withApp(flags, async (app) => {
          await allowProjectRoots(app, flags.projectRoot ?? []);
          const web = webView({ app, pages: registry().pages ?? [], modules: registry().modules });
          const listening = await serveOverHttp({
            routes: web.routes,
            app,
            selection,
            mounted: registry().surfaces,
            log,
            host: flags.host,
            port: flags.port,
            stateful: flags.stateful ?? false,
            readOnly: flags.readOnly ?? false,
            maxBodyBytes: flags.maxBody,
            ...(flags.store ? { store: flags.store } : {}),
            requireAuthAll: flags.requireAuth ?? false,
            consent: webConsentSession(app),
            ...(flags.allowedHost ? { allowedHosts: flags.allowedHost } : {}),
            ...(flags.corsOrigin ? { corsOrigins: flags.corsOrigin } : {}),
          });
          await out(
            connectInfo({
              url: listening.url,
              version: packageVersion(),
              surfaces: selection.map((s) => `${s.surface.name}:${s.tier}`).join(','),
              dataDir: app.dataDir,
              cli: thisCli(),
              dataArgs: dataArgs(app),
              stateful: flags.stateful ?? false,
              requireAuth: flags.requireAuth ?? false,
              readOnly: flags.readOnly ?? false,
              mounted: registry().surfaces.map((s) => s.name),
              sets: Object.fromEntries(
                registry()
                  .surfaces.filter((s) => s.tiers.length > 1)
                  .map((s) => [s.name, s.tiers]),
              ),
              ...checkoutInfo(),
            }),
          );
          await out(
            `\nWeb view (one-time sign-in as SYSTEM; more: intentlog open):\n  ${await web.signInLink(webBase(listening.url))}\n`,
          );
          const signal = await stopSignal();
          log.info({ signal }, 'stopping: finishing calls in flight');
          web.close();
          await listening.close();
        });
        log.info('stopped');
      }),
    );
