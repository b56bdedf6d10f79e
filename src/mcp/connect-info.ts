/**
 * What `intentlog serve` prints once it listens: the URL, how to get a token, and snippets to
 * paste into Claude Code and Codex, for HTTP and for stdio. Pure, so a test can read it.
 */
export type ConnectInfo = {
  url: string;
  version: string;
  surfaces: string;
  dataDir: string;
  /** how to run this intentlog: e.g. ['node', '/abs/dist/cli/main.js'] */
  cli: readonly string[];
  /** extra arguments every command needs to reach the same data (e.g. --data-dir) */
  dataArgs: readonly string[];
  stateful: boolean;
  /** `serve --require-auth`: every request needs a token or a sign-in, the lists too */
  requireAuth: boolean;
  /** `serve --read-only`: only tools that change nothing are listed, and the snippets say so */
  readOnly?: boolean;
  /** every surface, each also served alone at `<url>/<surface>` */
  mounted?: readonly string[];
  /** the sets of each surface that has more than one (`<url>/<surface>/<set>`, `name:set`) */
  sets?: Readonly<Record<string, readonly string[]>>;
  /**
   * the checkout this intentlog runs from, when it is one: its root is a Claude Code
   * marketplace of the intent plugin, and its node_modules/.bin holds the bins
   */
  checkout?: string;
};

const NAME = 'intentlog';
const TOKEN_VAR = 'INTENTLOG_TOKEN';

/** POSIX shell quoting, only where needed. */
const sh = (arg: string): string =>
  /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
const line = (args: readonly string[]): string => args.map(sh).join(' ');
const indent = (text: string, by: string): string =>
  text
    .split('\n')
    .map((l) => by + l)
    .join('\n');
const toml = (value: string | readonly string[]): string => JSON.stringify(value);
/** Indented JSON with arrays of strings kept on one line, as people write .mcp.json. */
const json = (value: unknown): string =>
  JSON.stringify(value, null, 2).replace(
    /\[\s*("[^"]*"(?:,\s*"[^"]*")*)\s*\]/g,
    (_m, items: string) => `[${items.replace(/,\s*/g, ', ')}]`,
  );

const snippets = (info: ConnectInfo) => {
  const [command = 'node', ...cliArgs] = info.cli;
  const stdioArgs = [
    ...cliArgs,
    'mcp',
    ...info.dataArgs,
    ...(info.readOnly ? ['--read-only'] : []),
  ];
  const mcpJsonHttp = {
    mcpServers: {
      [NAME]: {
        type: 'http',
        url: info.url,
        headers: { Authorization: `Bearer \${${TOKEN_VAR}}` },
      },
    },
  };
  const mcpJsonStdio = { mcpServers: { [NAME]: { type: 'stdio', command, args: stdioArgs } } };
  return {
    token: line([...info.cli, 'token', 'create', '--system', ...info.dataArgs]),
    tokenActor: line([...info.cli, 'token', 'create', '--actor', 'ID', ...info.dataArgs]),
    tokenNpx: line(['npx', 'intentlog', 'token', 'create', '--system', ...info.dataArgs]),
    stdio: line([command, ...stdioArgs]),
    mcpJsonHttp: json(mcpJsonHttp),
    mcpJsonStdio: json(mcpJsonStdio),
    tomlHttp: [
      `[mcp_servers.${NAME}]`,
      `url = ${toml(info.url)}`,
      `bearer_token_env_var = ${toml(TOKEN_VAR)}`,
    ].join('\n'),
    tomlStdio: [
      `[mcp_servers.${NAME}]`,
      `command = ${toml(command)}`,
      `args = [${stdioArgs.map((a) => toml(a)).join(', ')}]`,
    ].join('\n'),
  };
};

/** One line per surface served at its own path (two contracts both define create_project). */
const perSurface = (info: ConnectInfo): string[] =>
  info.mounted && info.mounted.length > 0
    ? [
        '5. Every surface also has its own endpoint (same process, log and token). Each URL is a',
        '   server of its own to a host: a token works on all, a sign-in is made once per URL.',
        ...info.mounted.map(
          (name) =>
            `   ${name}: claude mcp add --transport http ${NAME}-${name} ${info.url}/${name} ` +
            `--header "Authorization: Bearer $${TOKEN_VAR}"  |  stdio: ${snippets(info).stdio} --surface ${name}`,
        ),
        ...setsLines(info),
        '',
      ]
    : [];

/** Which set to pick: a smaller one is a path (or `name:set`) away (docs/clients.md). */
const setsLines = (info: ConnectInfo): string[] => {
  const sets = Object.entries(info.sets ?? {});
  if (sets.length === 0) return [];
  return [
    '   Sets: add /<set> to a URL (stdio: --surface name:set); each surface serves all by default.',
    `   ${sets.map(([name, names]) => `${name}: ${names.join(', ')}`).join('; ')}.`,
    '   A host that loads at most 40 tools of a server (Cursor) needs storymap/core;',
    '   core is the everyday loop, and the smallest sets cost a model the least context.',
  ];
};

/**
 * The intent surface is installed per host, not by URL: a Claude Code plugin (its MCP server,
 * Hooks and Skill) and a Codex stdio server, whose sandbox root names the project.
 */
const intentSection = (info: ConnectInfo): string[] => {
  if (!info.mounted?.includes('intent')) return [];
  const [command = 'node', ...cliArgs] = info.cli;
  const args = [
    ...cliArgs,
    'mcp',
    '--surface',
    'intent',
    ...info.dataArgs,
    ...(info.readOnly ? ['--read-only'] : []),
  ];
  return [
    '6. The intent surface (what the user wants, as claims; docs/intent.md)',
    ...(info.checkout
      ? [
          '   Claude Code plugin (MCP server, Hooks, Skill; runs this checkout by path):',
          `     claude plugin marketplace add ${sh(info.checkout)} && claude plugin install ${NAME}-intent@${NAME}`,
        ]
      : []),
    `   Claude Code without the plugin: claude mcp add ${NAME}-intent -- ${line([command, ...args])}`,
    '   Codex, in ~/.codex/config.toml (the sandbox root names the project):',
    indent(
      [
        `[mcp_servers.${NAME}-intent]`,
        `command = ${toml(command)}`,
        `args = [${args.map((a) => toml(a)).join(', ')}]`,
      ].join('\n'),
      '     ',
    ),
    '',
  ];
};

/** What needs a credential, as `serve` was started (docs/clients.md, "Credentials by method"). */
const credentials = (info: ConnectInfo): string =>
  info.requireAuth
    ? 'serve --require-auth: every request needs one or a sign-in, initialize and the lists too'
    : 'tools/call needs one; initialize and the lists are open';

/** The bins by name: npx in the checkout, or the checkout's node_modules/.bin on PATH. */
const onPath = (info: ConnectInfo, tokenNpx: string): string[] =>
  info.checkout
    ? [
        `   (in this checkout, \`${tokenNpx}\` does the same; for intentlog on PATH:`,
        `    export PATH=${sh(`${info.checkout}/node_modules/.bin`)}:"$PATH", or npm link there)`,
      ]
    : [];

/** OAuth: the host signs in through the browser, once per URL (docs/clients.md). */
const signIn = (info: ConnectInfo): string[] => [
  '4. Sign in instead of a token (OAuth: a person signs in in the browser, once per URL)',
  `   Claude Code: claude mcp add --transport http ${NAME} ${info.url}`,
  `                claude mcp login ${NAME}   (or /mcp → Authenticate in a session)`,
  `   Codex:       codex mcp add ${NAME} --url ${info.url}   (it signs in as it adds the server;`,
  `                codex mcp login ${NAME} signs in again later)`,
  '',
];

const APPROVAL =
  '   Claude Code asks once before it starts a project .mcp.json server (⏸ Pending approval\n' +
  '   in claude mcp list until then): approve it in claude, or list it in the git\n' +
  `   repository's .claude/settings.local.json: {"enabledMcpjsonServers": ["${NAME}"]}`;

export const connectInfo = (info: ConnectInfo): string => {
  const s = snippets(info);
  const mode = info.stateful ? 'stateful sessions' : 'stateless JSON';
  return [
    `intentlog ${info.version}: MCP (Streamable HTTP, ${mode}) at ${info.url}`,
    `  /mcp serves ${info.surfaces} (each as name:set; every surface also has a URL of its own, step 5)`,
    `  data: ${info.dataDir}   stop: Ctrl-C`,
    ...(info.readOnly
      ? ['  read-only: only tools that change nothing are listed; every other call is refused']
      : []),
    '',
    `1. Get a token (${credentials(info)}):`,
    `     export ${TOKEN_VAR}=$(${s.token})`,
    `   for one actor instead of SYSTEM: ${s.tokenActor}`,
    ...onPath(info, s.tokenNpx),
    '',
    '2. Claude Code',
    `   HTTP:  claude mcp add --transport http ${NAME} ${info.url} --header "Authorization: Bearer $${TOKEN_VAR}"`,
    `   stdio: claude mcp add ${NAME} -- ${s.stdio}`,
    '   or in .mcp.json (HTTP):',
    indent(s.mcpJsonHttp, '     '),
    '   or in .mcp.json (stdio):',
    indent(s.mcpJsonStdio, '     '),
    APPROVAL,
    '',
    '3. Codex',
    `   HTTP:  codex mcp add ${NAME} --url ${info.url} --bearer-token-env-var ${TOKEN_VAR}`,
    `   stdio: codex mcp add ${NAME} -- ${s.stdio}`,
    '   or in ~/.codex/config.toml (HTTP):',
    indent(s.tomlHttp, '     '),
    '   or in ~/.codex/config.toml (stdio):',
    indent(s.tomlStdio, '     '),
    '',
    ...signIn(info),
    ...perSurface(info),
    ...intentSection(info),
    'stdio servers may run next to this one on the same data; add --actor ID to act as an actor.',
    'Cursor and the MCP Inspector: docs/clients.md',
    '',
  ].join('\n');
};
