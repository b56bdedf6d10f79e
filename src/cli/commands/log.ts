import type { Command } from 'commander';
import type { Observable } from 'rxjs';
import type { LogEvent } from '../../events/index.js';
import { eachPage, eventSource, jsonLine, textLine, type EventSource } from '../event-lines.js';
import { action, appCommand, out, position, withApp, type AppFlags } from '../options.js';

type LogFlags = AppFlags & { project?: string; since: number; follow?: boolean; json?: boolean };

/**
 * Prints history, then (with --follow) live events. The live subscription opens before the
 * history is read, and what it delivers meanwhile is held back and deduplicated by position,
 * so nothing committed in between is lost or printed twice.
 */
const follow = async (
  source: EventSource,
  live: Observable<LogEvent>,
  history: (emit: (events: LogEvent[]) => Promise<void>) => Promise<number>,
  format: (e: LogEvent) => string,
): Promise<void> => {
  let last = -1;
  let writing = Promise.resolve();
  const emit = async (events: LogEvent[]) => {
    const fresh = events.filter((e) => source.matches(e) && source.positionOf(e) > last);
    if (fresh.length === 0) return;
    last = source.positionOf(fresh.at(-1)!);
    await out(fresh.map(format).join(''));
  };
  const held: LogEvent[] = [];
  let caughtUp = false;
  const done = new Promise<void>((resolve) => {
    const subscription = live.subscribe({
      next: (e) => {
        if (!caughtUp) held.push(e);
        else writing = writing.then(() => emit([e]));
      },
      complete: resolve,
      error: resolve,
    });
    const stop = () => (subscription.unsubscribe(), resolve());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  last = await history(emit);
  caughtUp = true;
  writing = writing.then(() => emit(held.splice(0)));
  await done;
  await writing;
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
        await withApp(flags, async (app) => {
          const source = eventSource(app.log, flags.project);
          const history = (emit: (events: LogEvent[]) => Promise<void>) =>
            eachPage(source, flags.since, emit);
          if (flags.follow) return follow(source, app.log.live(), history, format);
          await history((events) => out(events.map(format).join('')));
        });
      }),
    );
