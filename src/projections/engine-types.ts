/** What the projection engine offers and is told: its API, options and the errors of a wait. */

/**
 * Why a read model stopped: its projector threw on an event (`fold`), the store refused the
 * write of its page (`write`: a full disk), its effect threw or overran its deadline (`effect`),
 * or its page of the log could not be read (`read`). Kept until the read model folds again.
 */
export type ReadModelFault = {
  phase: 'fold' | 'write' | 'effect' | 'read';
  /** the event it threw on (`fold`), else the end of the page it could not finish */
  position: number;
  message: string;
  /** when it failed first (ISO 8601); attempts since then are retries of the same work */
  since: string;
  attempts: number;
};

export type ProjectionStatus = {
  name: string;
  version: number;
  /** what its reads see: events up to here are folded (and their effects run) */
  position: number;
  head: number;
  /** the fault's message, while it has one (kept for callers that read only this) */
  error?: string;
  fault?: ReadModelFault;
};
export type Progress = (done: number, total: number) => void;

export type WaitOptions = {
  /** the read models to wait for; every one when absent */
  models?: readonly string[];
  timeoutMs?: number;
};

/** A wait for read models that did not reach the position in time. */
export class ProjectionTimeoutError extends Error {
  readonly code = 'projection_timeout';
  constructor(
    readonly position: number,
    readonly behind: readonly { name: string; position: number }[],
  ) {
    super(
      `read models still folding toward position ${position}: ` +
        behind.map((b) => `${b.name} at ${b.position}`).join(', '),
    );
  }
}

/**
 * A wait for read models that failed and stand before the position: answered at once, since
 * waiting would not help until the fault is fixed (a retry that succeeds clears it).
 */
export class ReadModelFailedError extends Error {
  readonly code = 'read_model_failed';
  constructor(
    readonly position: number,
    readonly failed: readonly { name: string; position: number; fault: ReadModelFault }[],
  ) {
    super(
      `read models failed before position ${position}: ` +
        failed
          .map(
            ({ name, fault }) =>
              `${name} (${fault.phase} at position ${fault.position}: ${fault.message})`,
          )
          .join('; '),
    );
  }
}

export type ProjectionEngine = {
  /**
   * Resolves once the read models asked for have folded the log up to `position`; rejects at
   * once with ReadModelFailedError when one of them failed before it, else with
   * ProjectionTimeoutError after the timeout (10 s).
   */
  waitFor(position: number, options?: WaitOptions): Promise<void>;
  rebuild(names?: string[], onProgress?: Progress): Promise<void>;
  status(): Promise<ProjectionStatus[]>;
  stop(): Promise<void>;
};

export type EngineOptions = {
  /** told about a fold that failed; the lane retries on its own */
  onError?: (error: unknown, projector: string) => void;
  /** run the projectors' effects (the writer's engine); off for replays such as the audit's */
  effects?: boolean;
  /** how long one effect may run before its read model is reported failed (default 10 s) */
  effectDeadlineMs?: number;
  /**
   * A read model that handles no event of a page writes nothing for it; its checkpoint is
   * written with its next change, or at the latest after this many such pages (default 16,
   * of 1,000 events): what a restart may read again for it.
   */
  idleCheckpointPages?: number;
  /**
   * A lane whose fold of a page took this long (ms), and twice what the others took together,
   * goes on in a cohort of its own (default 250). Tests that count writes set it out of reach:
   * on a loaded machine any lane may be judged slow.
   */
  slowLaneMs?: number;
};
