import { Command, Option } from 'commander';
import type { App } from '../app/app.js';
import { defaultDataDir } from '../app/data-dir.js';
import { isReadOnlyFailure, snapshotDataDir } from '../events/open-snapshot.js';
import { invalidArgument, isDomainError } from '../commands/errors.js';
import { idProblem } from '../commands/ids.js';
import { domainErrorOf } from '../commands/store-errors.js';
import { kernelRegistry } from './registry.js';
import { onStop } from './stop-signal.js';

/** The options every command that opens the data takes. */
export type AppFlags = { dataDir?: string; store?: string };

/** Adds `--data-dir` and `--store` to a command; the one place they are declared. */
export const withAppOptions = (command: Command): Command =>
  command
    .addOption(
      new Option('--data-dir <dir>', 'data directory (default: ~/.intentlog)').env(
        'INTENTLOG_HOME',
      ),
    )
    .addOption(
      new Option(
        '--store <store>',
        '"memory" or a postgres:// URL (default: LevelDB in the data dir)',
      ).env('INTENTLOG_STORE'),
    );

/** A leaf command that opens the app: name, description and the shared options. */
export const appCommand = (name: string, description: string): Command =>
  withAppOptions(new Command(name).description(description));

/** Whether a command writes (default) or only reads, which a read-only data dir still allows. */
export type AppAccess = 'write' | 'read';

/**
 * Opens the app for one command and always closes it, also when the command fails. A command
 * that only reads (`log`, `export`, `audit verify`, `sync`) still works on a data dir that
 * cannot be written, with no writer to forward to: it reads a private copy (note on stderr).
 * And it has nothing to finish: on the first SIGINT or SIGTERM its app closes at once, so a read
 * waiting for a writer that may never come back (a read-only data dir whose writer stopped)
 * ends, and the command stops with its private copy removed. `--follow` takes the signal as
 * its end (exit 0); any other command says it was stopped (exit 1).
 */
export const withApp = async <T>(
  flags: AppFlags,
  body: (app: App) => Promise<T>,
  access: AppAccess = 'write',
): Promise<T> => {
  let opened: OpenedApp | undefined;
  let stoppedBy: NodeJS.Signals | undefined;
  const off =
    access === 'read'
      ? onStop((signal) => {
          stoppedBy = signal;
          void opened?.close();
        })
      : () => undefined;
  try {
    opened = await openFor(flags, access);
    if (!stoppedBy) return await body(opened.app);
  } catch (error) {
    if (!stoppedBy) throw error; // else it is what closing did to a call in flight
  } finally {
    off();
    await opened?.close();
  }
  throw new Error(`stopped by ${stoppedBy}`);
};

/** An app opened for one command, and what closes it (and removes a private copy). */
export type OpenedApp = { app: App; close(): Promise<void> };

/** Opens the app as `withApp` does, for a command that must start before it is open (`mcp`). */
export const openFor = async (flags: AppFlags, access: AppAccess = 'write'): Promise<OpenedApp> => {
  const store = flags.store ? { store: flags.store } : {};
  const dataDir = flags.dataDir ?? defaultDataDir();
  let snapshot: Awaited<ReturnType<typeof snapshotDataDir>> | undefined;
  // loaded here, not above: a command that opens no app (`token create`) must not pay for it
  const [{ openApp }, { modules }] = await Promise.all([import('../app/app.js'), kernelRegistry()]);
  const app = await openApp({ modules, dataDir, ...store }).catch(async (error: unknown) => {
    if (access !== 'read' || flags.store || !isReadOnlyFailure(error)) throw error;
    snapshot = await snapshotDataDir(dataDir);
    note(
      `intentlog: ${dataDir} cannot be written (${describeError(error).split('\n').at(-1)!.trim()}); reading a private copy of it`,
    );
    return openApp({ modules, dataDir: snapshot.dataDir });
  });
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    await app.close();
    await snapshot?.remove();
  };
  return { app, close: () => (closing ??= close()) };
};

/** Diagnostics and progress go to stderr: stdout carries only the command's output. */
export const note = (message: string): void => void process.stderr.write(`${message}\n`);

const describeOne = (error: unknown, mapped: boolean): string => {
  const domain = isDomainError(error) ? error : mapped ? domainErrorOf(error) : undefined;
  if (domain) return `${domain.code}: ${domain.message}`;
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code)
    ? `${error.message} (${code})`
    : error.message;
};

/**
 * The error and every `cause` under it, one per line: "Database failed to open" alone does not
 * say whether the disk is full, the data dir read-only or its MANIFEST missing; the causes do.
 */
export const describeError = (error: unknown): string => {
  const lines = [describeOne(error, true)];
  const seen = new Set<unknown>([error]);
  for (let at = causeOf(error); at !== undefined && !seen.has(at); at = causeOf(at)) {
    seen.add(at);
    lines.push(`  caused by: ${describeOne(at, false)}`);
  }
  return lines.join('\n');
};

const causeOf = (error: unknown): unknown =>
  error instanceof Error ? (error as { cause?: unknown }).cause : undefined;

/**
 * Wraps a command action: a failure becomes one line on stderr and exit code 1 (commander
 * itself answers usage errors with 1 as well), never a stack trace for a domain error.
 */
export const action =
  <A extends unknown[]>(body: (...args: A) => Promise<void>) =>
  async (...args: A): Promise<void> => {
    try {
      await body(...args);
    } catch (error) {
      note(`intentlog: ${describeError(error)}`);
      if (process.env.INTENTLOG_DEBUG && error instanceof Error) note(error.stack ?? '');
      process.exitCode = 1;
    }
  };

/** Writes text to stdout, waiting when the pipe is full (large exports, `log | less`). */
export const out = async (text: string): Promise<void> => {
  if (text.length === 0 || process.stdout.write(text)) return;
  await new Promise<void>((resolve) => process.stdout.once('drain', resolve));
};

/** Parses a non-negative integer option (positions and cursors). */
export const position = (value: string): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new TypeError(`not a position: ${value}`);
  return n;
};

/** An id given on the command line (`--actor`), held to the one id rule. */
export const cliId = (what: string, value: string): string => {
  const problem = idProblem(value);
  if (problem) throw invalidArgument(`not ${what}: ${problem}`);
  return value;
};
