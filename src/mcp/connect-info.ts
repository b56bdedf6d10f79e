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
  /** every surface, each also served alone at `<url>/<surface>` */
  mounted?: readonly string[];
  /** the bundled Claude Code plugin of the intent surface (a directory), when served */
  intentPlugin?: string;
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
  const stdioArgs = [...cliArgs, 'mcp', ...info.dataArgs];
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
        '4. Every surface also has its own endpoint (same process, log and token):',
        ...info.mounted.map(
          (name) =>
            `   ${name}: claude mcp add --transport http ${NAME}-${name} ${info.url}/${name} ` +
            `--header "Authorization: Bearer $${TOKEN_VAR}"  |  stdio: ${snippets(info).stdio} --surface ${name}`,
        ),
        '',
      ]
    : [];

/**
 * The intent surface is installed per host, not by URL: a Claude Code plugin (its MCP server,
 * Hooks and Skill) and a Codex stdio server, whose sandbox root names the project.
 */
const intentSection = (info: ConnectInfo): string[] => {
  if (!info.mounted?.includes('intent')) return [];
  const [command = 'node', ...cliArgs] = info.cli;
  const args = [...cliArgs, 'mcp', '--surface', 'intent', ...info.dataArgs];
  return [
    '5. The intent surface (what the user wants, as claims; docs/intent.md)',
    ...(info.intentPlugin
      ? [
          `   Claude Code plugin (MCP server, Hooks, Skill; needs intentlog on PATH): claude plugin install ${sh(info.intentPlugin)}`,
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

export const connectInfo = (info: ConnectInfo): string => {
  const s = snippets(info);
  const mode = info.stateful ? 'stateful sessions' : 'stateless JSON';
  return [
    `intentlog ${info.version}: MCP (Streamable HTTP, ${mode}) at ${info.url}`,
    `  surfaces: ${info.surfaces}   data: ${info.dataDir}   stop: Ctrl-C`,
    '',
    '1. Get a token (tools/call needs one; initialize and tools/list do not):',
    `     export ${TOKEN_VAR}=$(${s.token})`,
    `   for one actor instead of SYSTEM: ${s.tokenActor}`,
    `   (in this checkout, \`${s.tokenNpx}\` does the same)`,
    '',
    '2. Claude Code',
    `   HTTP:  claude mcp add --transport http ${NAME} ${info.url} --header "Authorization: Bearer $${TOKEN_VAR}"`,
    `   stdio: claude mcp add ${NAME} -- ${s.stdio}`,
    '   or in .mcp.json (HTTP):',
    indent(s.mcpJsonHttp, '     '),
    '   or in .mcp.json (stdio):',
    indent(s.mcpJsonStdio, '     '),
    '',
    '3. Codex',
    `   HTTP:  codex mcp add ${NAME} --url ${info.url} --bearer-token-env-var ${TOKEN_VAR}`,
    `   stdio: codex mcp add ${NAME} -- ${s.stdio}`,
    '   or in ~/.codex/config.toml (HTTP):',
    indent(s.tomlHttp, '     '),
    '   or in ~/.codex/config.toml (stdio):',
    indent(s.tomlStdio, '     '),
    '',
    ...perSurface(info),
    ...intentSection(info),
    'stdio servers may run next to this one on the same data; add --actor ID to act as an actor.',
    'Cursor and the MCP Inspector: docs/clients.md',
    '',
  ].join('\n');
};
