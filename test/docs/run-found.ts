import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENTS, type Installed } from '../support/clients.js';
import { signsIn, type Command, type ConfigBlock, type Found } from './extract.js';
import {
  argvOf,
  bash,
  claudeAdded,
  claudeList,
  codexServers,
  newHome,
  reachAsCodex,
  type Home,
} from './hosts.js';

/** What a run needs: the server the commands reach, as the docs or the banner name it. */
export type Target = {
  root: string;
  url: string;
  token: string;
  dataDir: string;
  requireAuth: boolean;
  clients: Record<keyof typeof CLIENTS, Installed>;
};

const PLACEHOLDER_URL = 'http://127.0.0.1:7411';
const PLACEHOLDER_ROOT = '/abs/path/to/intentlog';
const INSPECTOR = /^npx -y @modelcontextprotocol\/inspector@(\S+)/;

/** The docs' placeholders made real; anything else that looks like one is a finding. */
export const substitute = (text: string, target: Target): string =>
  text
    .replaceAll(PLACEHOLDER_ROOT, target.root)
    .replaceAll(PLACEHOLDER_URL, new URL(target.url).origin);
const placeholder = (text: string) => /…|<[a-z_ -]+>|\/abs\/path|\/path\/to/.exec(text)?.[0];

const clientOf = (f: Found): keyof typeof CLIENTS | 'curl' => {
  if (f.kind === 'mcp.json') return 'claude';
  if (f.kind !== 'command') return 'codex';
  const word = f.line.split(' ')[0];
  return word === 'claude' || word === 'codex' || word === 'curl' ? word : 'inspector';
};

/** Whether a host should show a server connected or waiting for a sign-in. */
const expected = (text: string, target: Target) =>
  target.requireAuth && /https?:\/\//.test(text) && !text.includes('INTENTLOG_TOKEN')
    ? 'Needs authentication'
    : 'Connected';

type Step = {
  where: string;
  run?: string;
  mcpJson?: string;
  approve: boolean;
  expect: Record<string, string>;
};

/** Runs steps in one Claude Code home; returns what differs from what each says. */
const inClaudeHome = async (steps: Step[], home: Home): Promise<string[]> => {
  const problems: string[] = [];
  for (const step of steps) {
    if (step.mcpJson) writeFileSync(join(home.project, '.mcp.json'), step.mcpJson);
    if (!step.run) continue;
    const r = await bash(step.run, { cwd: home.project, env: home.env, timeout: 180_000 });
    if (r.code !== 0) problems.push(`${step.where}: exit ${r.code}: ${r.stderr || r.stdout}`);
  }
  const pending = steps.filter((s) => s.approve).flatMap((s) => Object.keys(s.expect));
  let listed = await claudeList(home);
  for (const name of pending)
    if (listed.get(name) !== 'Pending approval')
      problems.push(`${name}: before approval ${listed.get(name) ?? 'not listed'}`);
  if (pending.length > 0) {
    mkdirSync(join(home.project, '.claude'), { recursive: true });
    const approval = JSON.stringify({ enabledMcpjsonServers: pending });
    writeFileSync(join(home.project, '.claude/settings.local.json'), approval);
    listed = await claudeList(home);
  }
  for (const step of steps)
    for (const [name, want] of Object.entries(step.expect))
      if (listed.get(name) !== want)
        problems.push(`${step.where}: ${name} is ${listed.get(name) ?? 'not listed'}, not ${want}`);
  return problems;
};

/** The claude steps, grouped into homes where their server names do not meet. */
const claudeSteps = async (found: Found[], target: Target, scratch: Home): Promise<Step[][]> => {
  const groups: { names: Set<string>; steps: Step[] }[] = [];
  for (const f of found) {
    let step: Step;
    if (f.kind === 'mcp.json') {
      const text = substitute(f.text, target);
      const servers = (JSON.parse(text) as { mcpServers: Record<string, object> }).mcpServers;
      const expect = Object.fromEntries(
        Object.entries(servers).map(([n, s]) => [n, expected(JSON.stringify(s), target)]),
      );
      step = { where: f.where, mcpJson: text, approve: true, expect };
    } else if (f.kind === 'command') {
      const line = substitute(f.line, target);
      const plugin = /claude plugin install intentlog-intent@intentlog/.test(line);
      const name = plugin
        ? 'plugin:intentlog-intent:intentlog-intent'
        : claudeAdded(await argvOf(line, scratch));
      const expect = name ? { [name]: expected(line, target) } : {};
      step = { where: f.where, run: line, approve: /--scope project/.test(line), expect };
    } else continue;
    const names = Object.keys(step.expect);
    const fits = step.mcpJson
      ? undefined
      : groups.find((g) => !g.steps.some((s) => s.mcpJson) && names.every((n) => !g.names.has(n)));
    if (fits) {
      names.forEach((n) => fits.names.add(n));
      fits.steps.push(step);
    } else groups.push({ names: new Set(names), steps: [step] });
  }
  return groups.map((g) => g.steps);
};

/** One codex command or config.toml: what Codex saved must reach the server. */
const codexRun = async (f: Command | ConfigBlock, target: Target, home: Home) => {
  if (f.kind !== 'command')
    writeFileSync(join(home.env.CODEX_HOME!, 'config.toml'), substitute(f.text, target));
  else {
    const r = await bash(substitute(f.line, target), { cwd: home.project, env: home.env });
    if (r.code !== 0) return [`${f.where}: exit ${r.code}: ${r.stderr}`];
  }
  const servers = await codexServers(home);
  if (servers.length === 0) return [`${f.where}: codex saved no server`];
  const problems: string[] = [];
  for (const server of servers)
    await reachAsCodex(server, home).catch((e: Error) => problems.push(`${f.where}: ${e.message}`));
  return problems;
};

/** curl or the Inspector's CLI: the answer is an MCP result. */
const printRun = async (f: Command, target: Target, home: Home) => {
  let line = substitute(f.line, target);
  const pinned = INSPECTOR.exec(line);
  const inspector = target.clients.inspector;
  if (pinned) {
    if (pinned[1] !== CLIENTS.inspector.version)
      return [`${f.where}: pins ${pinned[1]}, docs/clients.md names ${CLIENTS.inspector.version}`];
    if ('skip' in inspector) return [];
    line = line.replace(INSPECTOR, inspector.bin);
  }
  const r = await bash([...f.prelude, line].join('\n'), { cwd: target.root, env: home.env });
  const ok = pinned ? /"ok": ?true/.test(r.stdout) : /"result":/.test(r.stdout);
  return r.code === 0 && ok ? [] : [`${f.where}: exit ${r.code}: ${r.stdout} ${r.stderr}`];
};

/** A line that needs a person: marked, and every flag it uses known to the client. */
const personCheck = async (f: Found, home: Home): Promise<string[]> => {
  if (f.kind !== 'command') return [];
  const pinned = INSPECTOR.exec(f.line);
  if (pinned)
    return pinned[1] === CLIENTS.inspector.version ? [] : [`${f.where}: pins ${pinned[1]}`];
  const words = f.line.split(' ');
  const command = words.slice(0, 3).join(' ');
  const help = await bash(`${command} --help`, { cwd: home.project, env: home.env });
  if (help.code !== 0) return [`${f.where}: ${command} --help: exit ${help.code}`];
  return words
    .filter((w) => w.startsWith('--'))
    .map((w) => w.split('=')[0]!)
    .filter((flag) => !help.stdout.includes(flag))
    .map((flag) => `${f.where}: ${command} has no ${flag}`);
};

/** A pool of `size` workers over the jobs. */
const pool = async <T>(jobs: (() => Promise<T>)[], size = 3): Promise<T[]> => {
  const results: T[] = [];
  const next = async (): Promise<void> => {
    const job = jobs.shift();
    if (!job) return;
    results.push(await job());
    return next();
  };
  await Promise.all(Array.from({ length: size }, next));
  return results;
};

/**
 * Runs what was found against the target and returns every problem, and why a client's part
 * was not run (it could not be installed).
 */
export const runFound = async (found: Found[], target: Target) => {
  const skipped = new Set<string>();
  const bins = Object.values(target.clients).flatMap((c) => ('bin' in c ? [c.bin] : []));
  const homes: Home[] = [];
  const home = async () => {
    const h = await newHome(bins, {
      INTENTLOG_TOKEN: target.token,
      INTENTLOG_HOME: target.dataDir,
    });
    homes.push(h);
    return h;
  };
  const usable = found.filter((f) => {
    const client = clientOf(f);
    const installed = client === 'curl' ? { bin: 'curl' } : target.clients[client];
    if ('skip' in installed) skipped.add(installed.skip);
    return !('skip' in installed) || INSPECTOR.test(f.kind === 'command' ? f.line : '');
  });
  const problems: string[] = [];
  for (const f of usable) {
    const text = f.kind === 'command' ? f.line : f.text;
    if (!f.person && f.kind === 'command' && signsIn(f.line))
      problems.push(`${f.where}: waits for a person at the browser; mark it "# person: …"`);
    const left = !f.person && placeholder(substitute(text, target));
    if (left) problems.push(`${f.where}: unknown placeholder ${left}`);
  }
  const runnable = usable.filter((f) => !f.person && !(f.kind === 'command' && signsIn(f.line)));
  const scratch = await home();
  const jobs: (() => Promise<string[]>)[] = [
    ...usable.filter((f) => f.person).map((f) => () => personCheck(f, scratch)),
    ...(
      await claudeSteps(
        runnable.filter((f) => clientOf(f) === 'claude'),
        target,
        scratch,
      )
    ).map((steps) => async () => inClaudeHome(steps, await home())),
    ...runnable
      .filter((f): f is Command | ConfigBlock => clientOf(f) === 'codex')
      .map((f) => async () => codexRun(f, target, await home())),
    ...runnable
      .filter(
        (f): f is Command => f.kind === 'command' && ['curl', 'inspector'].includes(clientOf(f)),
      )
      .map((f) => () => printRun(f, target, scratch)),
  ];
  try {
    problems.push(...(await pool(jobs)).flat());
  } finally {
    for (const h of homes) rmSync(h.dir, { recursive: true, force: true });
  }
  return {
    problems,
    skipped: [...skipped],
    ran: runnable.length,
    person: usable.length - runnable.length,
  };
};
