import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';

/**
 * The documented shape of a Claude Code marketplace and plugin (code.claude.com: plugin
 * marketplaces, plugins reference), the fields this repository uses. `claude plugin validate`
 * is the authority; test/plugin/claude-install.test.ts runs it when the CLI can be installed.
 */
const kebab = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/);

export const Marketplace = z.object({
  name: kebab,
  owner: z.object({ name: z.string().min(1) }),
  metadata: z.object({ description: z.string() }).optional(),
  plugins: z
    .array(
      z.object({
        name: kebab,
        source: z.string().startsWith('./'),
        description: z.string().optional(),
      }),
    )
    .min(1),
});

export const PluginManifest = z.object({
  name: kebab,
  version: z.string(),
  description: z.string(),
});

export const McpConfig = z.object({
  mcpServers: z.record(z.string(), z.object({ command: z.string(), args: z.array(z.string()) })),
});

/** Claude Code's hook events (code.claude.com hooks reference). */
const HookEvent = z.enum([
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'Notification',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
]);

export const HooksConfig = z.object({
  hooks: z.partialRecord(
    HookEvent,
    z.array(
      z.object({
        hooks: z.array(
          z.object({ type: z.literal('command'), command: z.string(), timeout: z.number() }),
        ),
      }),
    ),
  ),
});

export const readJson = <T>(path: string, schema: z.ZodType<T>): T =>
  schema.parse(JSON.parse(readFileSync(path, 'utf8')));

/** Every hook command of a hooks.json, with its event. */
export const hookCommands = (path: string): { event: string; command: string }[] =>
  Object.entries(readJson(path, HooksConfig).hooks).flatMap(([event, groups]) =>
    (groups ?? []).flatMap((g) => g.hooks.map((h) => ({ event, command: h.command }))),
  );

/** Every entry under `dir` (files, folders, links), relative, found without following links. */
export const walk = (dir: string): { path: string; link: boolean; file: boolean }[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = lstatSync(path);
    const here = { path: relative(dir, path), link: stat.isSymbolicLink(), file: stat.isFile() };
    if (!stat.isDirectory()) return [here];
    return [
      here,
      ...walk(path).map((inner) => ({ ...inner, path: join(relative(dir, path), inner.path) })),
    ];
  });
