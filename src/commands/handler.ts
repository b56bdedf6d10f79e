import {
  CommandHandler,
  type CommandHandlerRetryOptions,
  isExpectedVersionConflictError,
  type Command,
  type Decider,
  type Event,
} from '@event-driven-io/emmett';
import {
  IdempotencyReplayError,
  type AppendMeta,
  type EventLog,
  type IdempotencyRecord,
} from '../events/index.js';
import { conflict } from './errors.js';
import { fingerprint, idempotencyScope, type IdempotencyKey } from './idempotency.js';

export type Idempotency = IdempotencyKey & { operation: string; args: Record<string, unknown> };

export type CommandRun<State, C extends Command, E extends Event, R> = {
  decider: Decider<State, C, E>;
  stream: string;
  command: C;
  meta: AppendMeta;
  /** the role the caller acts in, read from the state the decider saw (stamped on the events) */
  roleIn?: (state: State) => string;
  idempotency?: Idempotency;
  /** the caller's answer, from the state after the command and the events it produced */
  respond: (state: State, events: E[]) => R;
};

export type CommandOutcome<R> = {
  result: R;
  /** global position the command reached; queries wait for it (read-your-writes) */
  position: number;
  /** true when an idempotency key replayed a stored response */
  replayed: boolean;
};

// Version conflicts are retried with jitter: under contention (8 claimants of one package) each
// retry re-decides on the new state, so losers get the domain's answer, not a 412.
// Only a version conflict is retried: a domain error is the answer and must not wait out 20 retries.
const FIRST_ATTEMPT = { retries: 0 };
const retry = {
  retries: 20,
  minTimeout: 2,
  maxTimeout: 100,
  factor: 2,
  randomize: true,
  shouldRetryError: isExpectedVersionConflictError,
};

const replay = <R>(record: IdempotencyRecord, print: string): CommandOutcome<R> => {
  if (record.fingerprint !== print)
    throw conflict('idempotency key reused with different input', { reason: 'key_reused' });
  return { result: record.response as R, position: record.position, replayed: true };
};

/**
 * The one write path: load the aggregate's stream, decide, append with the expected version,
 * and store the idempotency record with the events in the same atomic append.
 */
export const runCommand = async <State, C extends Command, E extends Event, R>(
  log: EventLog,
  run: CommandRun<State, C, E, R>,
): Promise<CommandOutcome<R>> => {
  const { decider, idempotency } = run;
  const scope = idempotency && idempotencyScope(idempotency);
  const print = idempotency && fingerprint(idempotency.operation, idempotency.args);
  if (scope && print) {
    const prior = await log.getIdempotency(scope);
    if (prior) return replay(prior, print);
  }
  const response: { value?: R } = {};
  // Emmett hands these options to appendToStream by reference, so what the decider step fills
  // in (the caller's role, the response) is what gets stored.
  const meta = { ...run.meta };
  const handler = (retry: CommandHandlerRetryOptions) =>
    CommandHandler<State, E>({
      evolve: decider.evolve,
      initialState: decider.initialState,
      retry,
    })(
      log,
      run.stream,
      (state) => {
        const decided = decider.decide(run.command, state);
        const events = Array.isArray(decided) ? decided : [decided];
        response.value = run.respond(events.reduce(decider.evolve, state), events);
        if (run.roleIn) meta.actor_role = run.roleIn(state);
        return events;
      },
      {
        meta,
        ...(scope && print ? { idempotency: { scope, fingerprint: print, response } } : {}),
      },
    );
  try {
    // The first attempt goes without a retry schedule (the retry library builds one per call,
    // a tenth of a command's CPU); only a version conflict starts the jittered retries.
    const outcome = await handler(FIRST_ATTEMPT).catch((error: unknown) => {
      if (isExpectedVersionConflictError(error)) return handler({ onVersionConflict: retry });
      throw error;
    });
    const position =
      outcome.newEvents.length > 0
        ? Number((outcome as { lastEventGlobalPosition?: bigint }).lastEventGlobalPosition ?? 0n)
        : 0;
    return { result: response.value as R, position, replayed: false };
  } catch (error) {
    if (error instanceof IdempotencyReplayError && print) return replay(error.record, print);
    throw error;
  }
};
