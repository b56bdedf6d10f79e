import type { Command } from 'commander';
import type { Observable } from 'rxjs';
import type { LogEvent } from '../../events/index.js';
import { eachPage, eventSource, jsonLine, textLine } from '../event-lines.js';
import { action, appCommand, out, position, withApp, type AppFlags } from '../options.js';
import { stopSignal } from '../stop-signal.js';

type LogFlags = AppFlags & { project?: string; since: number; follow?: boolean; json?: boolean };

// A follower's live subscription starts when the writer registers it; an event committed just
// before that is only announced by the next one. The poll bounds how late it can be printed.
const POLL_MS = 1000;

/**
 * Prints history, then (with --follow) what is committed later. Live events only wake the one
 * reader, which always reads the log on from the last position it printed: nothing is lost or
 * printed twice, whatever the order in which wake-ups and commits arrive.
 */
const follow = async (
  live: Observable<LogEvent>,
  readFrom: (after: number) => Promise<number>,
  since: number,
): Promise<void> => {
  let last = since;
  let reading = Promise.resolve();
  let queued = false; // at most one read waits behind the running one, however many wake-ups
  const pull = (): void => {
    if (queued) return;
    queued = true;
    reading = reading.then(async () => {
      queued = false;
      last = await readFrom(last);
    });
  };
  let stopped = false;
  const done = new Promise<void>((resolve) => {
    const subscription = live.subscribe({ next: pull, complete: resolve, error: resolve });
    const poll = setInterval(pull, POLL_MS);
    void stopSignal().then(() => {
      stopped = true;
      subscription.unsubscribe();
      clearInterval(poll);
      resolve();
    });
  });
  pull();
  await done;
  // stopped: the app closes under a read still waiting (withApp), which is no failure
  await reading.catch((error: unknown) => {
    if (!stopped) throw error;
  });
};

export const logCommand = (): Command =>
  appCommand('log', 'print the events of the log, or of one project; --follow for live ones')
    .option('--project <id>', 'only this project (positions are then its cursors)')
    .option('--since <n>', 'start after this position (cursor with --project)', position, 0)
    .option('--follow', 'keep printing events as they are committed (until Ctrl-C)')
    .option('--json', 'one sync_since envelope per line')
    .action(
      action(async (flags: LogFlags) => {
        const format = flags.json ? jsonLine : textLine;
        await withApp(
          flags,
          async (app) => {
            const source = eventSource(app.log, flags.project);
            const readFrom = (after: number) =>
              eachPage(source, after, (events) => out(events.map(format).join('')));
            if (flags.follow) return follow(app.log.live(), readFrom, flags.since);
            await readFrom(flags.since);
          },
          'read',
        );
      }),
    );
