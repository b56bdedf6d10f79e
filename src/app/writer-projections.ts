import { DomainError } from '../commands/errors.js';
import type { EventLog } from '../events/index.js';
import type { SharedEventLog, WriterOp } from '../events/open-log.js';
import {
  ProjectionTimeoutError,
  startProjections,
  type ProjectionEngine,
  type ProjectionStatus,
  type Progress,
  type WaitOptions,
} from '../projections/index.js';

/** A wait that timed out is an outage of the read side, told as `unavailable`. */
const asUnavailable = (error: unknown): never => {
  if (error instanceof ProjectionTimeoutError)
    throw new DomainError('unavailable', error.message, {
      position: error.position,
      behind: error.behind,
    });
  throw error;
};

/**
 * Read models live with the writer: the engine starts whenever this process becomes the
 * writer, and every process reaches it through writer ops, locally or over the writer socket.
 */
export const writerProjections = (
  projectors: Parameters<typeof startProjections>[1],
  onError?: (error: unknown, projector: string) => void,
) => {
  let engine: ProjectionEngine | undefined;
  const local = (): ProjectionEngine => {
    if (!engine) throw new DomainError('unavailable', 'the read models are not running yet');
    return engine;
  };
  const ops = {
    'projections.waitFor': (async ({ position, models }: { position: number; models?: string[] }) =>
      local()
        .waitFor(position, models ? { models } : {})
        .catch(asUnavailable)) satisfies WriterOp<{ position: number; models?: string[] }, void>,
    'projections.rebuild': (async ({ names }: { names: string[] }) =>
      local().rebuild(names)) satisfies WriterOp<{ names: string[] }, void>,
    'projections.status': (async () => local().status()) satisfies WriterOp<
      Record<string, never>,
      ProjectionStatus[]
    >,
  };
  const onWriter = async (log: EventLog) => {
    const started = await startProjections(log, projectors, {
      effects: true,
      ...(onError ? { onError } : {}),
    });
    engine = started;
    return async () => {
      if (engine === started) engine = undefined;
      await started.stop();
    };
  };

  /** The facade every process uses, writer or follower. */
  const facade = (log: SharedEventLog<typeof ops>) => ({
    waitFor: (position: number, models?: WaitOptions['models']): Promise<void> =>
      log.call('projections.waitFor', models ? { position, models: [...models] } : { position }),
    status: () => log.call('projections.status', {}),
    async rebuild(names: string[] = [], onProgress?: Progress) {
      if (engine && log.role() === 'writer') return engine.rebuild(names, onProgress);
      // a follower cannot be called back: it shows progress by polling the writer's status
      const timer = onProgress && setInterval(() => void poll(), 250);
      const poll = async () => {
        const rows = await log.call('projections.status', {}).catch(() => []);
        const behind = rows.filter((r) => names.length === 0 || names.includes(r.name));
        if (behind.length > 0 && onProgress)
          onProgress(Math.min(...behind.map((r) => r.position)), behind[0]!.head);
      };
      try {
        await log.call('projections.rebuild', { names });
        await poll();
      } finally {
        if (timer) clearInterval(timer);
      }
    },
  });
  return { ops, onWriter, facade };
};
