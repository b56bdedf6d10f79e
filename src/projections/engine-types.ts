/** What the projection engine offers and is told: its API, options and the error of a wait. */

export type ProjectionStatus = {
  name: string;
  version: number;
  position: number;
  head: number;
  /** the last error its fold met, until it folds again (a full disk, a broken store) */
  error?: string;
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

export type ProjectionEngine = {
  /** resolves once the read models asked for have folded the log up to `position` */
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
};
