import type { App } from './app.js';
import type { KernelModule, WriterContext } from './kernel-module.js';

/** The contexts' writer work: `start` when this process becomes the writer, `open` once its app is. */
export type WriterContexts = {
  start: (local: Omit<WriterContext, 'app' | 'becameWriterAt'>) => () => Promise<void>;
  /** resolves once the work a writer role already taken has started (the spool folded) */
  open: (app: App) => Promise<void>;
};

/**
 * The contexts' own work in the writer (KernelModule.onWriter, e.g. the intent Hooks' spool and
 * view files): started once this process is the writer and its app is open, stopped, last
 * started first, before the log closes. The writer role can come before `openApp` answers
 * (the process that opens a data dir first is its writer), so each waits for the app.
 */
export function writerContexts(modules: readonly KernelModule[]): WriterContexts | undefined {
  const starts = modules.flatMap((m) => (m.onWriter ? [m.onWriter] : []));
  if (starts.length === 0) return undefined;
  let open: (app: App) => void = () => {};
  const app = new Promise<App>((resolve) => (open = resolve));
  let latest: Promise<unknown> = Promise.resolve();
  const start = (local: Omit<WriterContext, 'app' | 'becameWriterAt'>) => {
    let stopping = false;
    let starting = false;
    // read now, before the route this writer serves takes its first write
    const becameWriterAt = local.log.head();
    becameWriterAt.catch(() => {});
    const started = app.then(async (opened) => {
      const stops: (() => Promise<void>)[] = [];
      starting = !stopping;
      for (const begin of starts)
        if (!stopping) stops.push(await begin({ ...local, app: opened, becameWriterAt }));
      return stops;
    });
    latest = started.catch((error: unknown) =>
      process.stderr.write(`intentlog: the writer's work did not start: ${String(error)}\n`),
    );
    return async () => {
      stopping = true;
      // an app that never opened (its open failed after the writer role came) started nothing
      if (!starting) return;
      const stops = await started.catch(() => []);
      for (const stop of stops.reverse()) await stop();
    };
  };
  return {
    start,
    open: async (opened) => {
      open(opened);
      await latest;
    },
  };
}
