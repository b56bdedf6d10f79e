/**
 * Calls `handler` on the first SIGTERM or SIGINT, once; the answer stops listening. A second
 * signal, with nobody else listening, ends the process as Node does by default.
 */
export const onStop = (handler: (signal: NodeJS.Signals) => void): (() => void) => {
  const off = (): void => {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  };
  const stop = (signal: NodeJS.Signals): void => {
    off();
    handler(signal);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return off;
};

/** Resolves on the first SIGTERM or SIGINT: the signal to stop serving or following. */
export const stopSignal = (): Promise<NodeJS.Signals> =>
  new Promise((resolve) => void onStop(resolve));
