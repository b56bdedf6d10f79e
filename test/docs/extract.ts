/**
 * The client commands a person copies from README.md, docs/ and the `serve` banner: shell lines
 * that run an MCP host or client (`claude`, `codex`, `curl`, the Inspector through `npx`), and
 * the `.mcp.json` and `config.toml` blocks pasted into a host's files. A line that needs a person
 * (a browser, an approval prompt, a UI) says so: `# person: <what they see>` at its end, or
 * `<!-- person: … -->` before its block.
 */
export type Command = {
  kind: 'command';
  /** file:line, or banner:<mode>:line */
  where: string;
  line: string;
  /** the block's variable assignments before the line (e.g. curl's header array) */
  prelude: string[];
  person?: string;
};
export type ConfigBlock = {
  kind: 'mcp.json' | 'config.toml';
  where: string;
  text: string;
  person?: string;
};
export type Found = Command | ConfigBlock;

const CLIENT = /^(claude|codex|curl) |^npx (-y )?@modelcontextprotocol\/inspector/;
const SHELL = new Set(['sh', 'bash', 'console', 'shell', '']);
const PERSON_BLOCK = /^<!-- person: (.+) -->$/;

/** The line and its comment, split at the first `#` outside quotes that follows a space. */
export const splitComment = (line: string): [string, string] => {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!)))
      return [line.slice(0, i).trimEnd(), line.slice(i + 1).trim()];
  }
  return [line.trimEnd(), ''];
};

/** Lines ending in `\` joined with the next, each with the number of its first line. */
const logicalLines = (lines: string[], first: number): { text: string; at: number }[] => {
  const out: { text: string; at: number }[] = [];
  let pending: { text: string; at: number } | undefined;
  lines.forEach((raw, i) => {
    const text = pending ? `${pending.text} ${raw.trim()}` : raw;
    const at = pending?.at ?? first + i;
    if (/\\$/.test(text)) pending = { text: text.slice(0, -1).trimEnd(), at };
    else {
      pending = undefined;
      out.push({ text, at });
    }
  });
  return out;
};

const shellCommands = (where: (at: number) => string, lines: string[], first: number) => {
  const found: Command[] = [];
  const prelude: string[] = [];
  for (const { text, at } of logicalLines(lines, first)) {
    const [line, comment] = splitComment(text.trim());
    if (/^[A-Za-z_]\w*=/.test(line)) prelude.push(line);
    if (!line.split(' && ').some((part) => CLIENT.test(part.trim()))) continue;
    const person = /^person:\s*(.+)$/.exec(comment)?.[1];
    found.push({
      kind: 'command',
      where: where(at),
      line,
      prelude: [...prelude],
      ...(person ? { person } : {}),
    });
  }
  return found;
};

/** Every client command and host config block of one Markdown file. */
export const fromMarkdown = (file: string, text: string): Found[] => {
  const lines = text.split('\n');
  const found: Found[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const lang = fence[1]!;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    const body = lines.slice(i + 1, end);
    const before =
      lines
        .slice(0, i)
        .reverse()
        .find((l) => l.trim() !== '') ?? '';
    const blockPerson = PERSON_BLOCK.exec(before.trim())?.[1];
    const person = blockPerson ? { person: blockPerson } : {};
    const where = (at: number) => `${file}:${at}`;
    if (SHELL.has(lang))
      found.push(
        ...shellCommands(where, body, i + 2).map((c) => ({
          ...c,
          ...person,
          ...(c.person ? { person: c.person } : {}),
        })),
      );
    else if (lang === 'json' && body.join('\n').includes('"mcpServers"'))
      found.push({ kind: 'mcp.json', where: where(i + 1), text: body.join('\n'), ...person });
    else if (lang === 'toml' && body.some((l) => l.startsWith('[mcp_servers.')))
      found.push({ kind: 'config.toml', where: where(i + 1), text: body.join('\n'), ...person });
    i = end;
  }
  return found;
};

/** A sign-in command: it waits for a person at the browser. */
export const signsIn = (line: string): boolean =>
  /\bmcp login\b/.test(line) ||
  (/\bcodex mcp add\b.* --url /.test(line) && !line.includes('--bearer-token-env-var'));

/**
 * The banner's commands: a line whose text (after a `Label: `) starts with `claude` or `codex`
 * up to two spaces, and the indented blocks after a line naming `.mcp.json` or `config.toml`.
 * A sign-in under the step that says a person signs in is marked with that step.
 */
export const fromBanner = (mode: string, banner: string): Found[] => {
  const lines = banner.split('\n');
  const found: Found[] = [];
  let step = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const where = `banner:${mode}:${i + 1}`;
    if (/^\d+\. /.test(line)) step = line;
    const command = /^\s*(?:[A-Za-z][\w ]*:\s+)?((?:claude|codex) \S.*?)(?:\s{2,}.*)?$/.exec(line);
    if (command) {
      const text = command[1]!;
      const person = signsIn(text) && /a person signs in/.test(step) ? { person: step } : {};
      found.push({ kind: 'command', where, line: text, prelude: [], ...person });
      continue;
    }
    const kind = /\.mcp\.json/.test(line)
      ? 'mcp.json'
      : /config\.toml/.test(line)
        ? 'config.toml'
        : undefined;
    if (!kind || !line.trimEnd().endsWith(':')) continue;
    const body: string[] = [];
    while (lines[i + 1]?.startsWith('     ')) body.push(lines[++i]!.slice(5));
    if (body.length > 0) found.push({ kind, where, text: body.join('\n') });
  }
  return found;
};
