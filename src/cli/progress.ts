import { SingleBar, Presets } from 'cli-progress';
import { note } from './options.js';

export type ProgressReporter = {
  update(done: number, total: number): void;
  stop(): void;
};

/**
 * Progress of long work on stderr: a bar on a terminal, otherwise a plain line at every tenth
 * of the way (logs stay readable when stderr is a file or a pipe).
 */
export const progress = (label: string): ProgressReporter => {
  if (process.stderr.isTTY) {
    const bar = new SingleBar(
      { format: `${label} [{bar}] {percentage}% {value}/{total}`, stream: process.stderr },
      Presets.shades_classic,
    );
    let started = false;
    return {
      update(done, total) {
        if (!started) bar.start(total, 0);
        started = true;
        bar.setTotal(total);
        bar.update(done);
      },
      stop: () => (started ? bar.stop() : undefined),
    };
  }
  let reported = -1;
  return {
    update(done, total) {
      const tenth = total === 0 ? 10 : Math.floor((done / total) * 10);
      if (tenth === reported) return;
      reported = tenth;
      note(`${label}: ${done}/${total}`);
    },
    stop: () => undefined,
  };
};
