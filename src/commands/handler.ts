import {
  asyncRetry,
  isExpectedVersionConflictError,
  type Command,
  type Decider,
  type Event,
} from '@event-driven-io/emmett';
import {
  IdempotencyReplayError,
  type AppendMeta,
  type EventLog,
  type IdempotencyClaim,
  type IdempotencyRecord,
} from '../events/index.js';
import { domainError, notFound } from './errors.js';
import { fingerprint, idempotencyScope, type IdempotencyKey } from './idempotency.js';
import { inTurn } from './stream-turns.js';

/**
 * Idempotency of one command: the key (scoped to project and caller), what "same input" means
 * (operation and arguments), and the contract's code for a key reused with other input.
 */
export type Idempotency = IdempotencyKey & {
  operation: string;
  args: Record<string, unknown>;
  /** the DomainError code for "same key, other input" (default `conflict`) */
  reusedCode?: string;
};

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

/** One stream of a multi-stream command: its name and how its state folds. */
export type CommandStream<S, E> = {
  name: string;
  evolve(state: S, event: E): S;
  initialState(): S;
};

/** A stream as the decision saw it: its folded state and the version it was loaded at. */
export type LoadedStream<S> = { state: S; version: number };

export type MultiStreamRun<S, E extends Event, R> = {
  streams: readonly CommandStream<S, E>[];
  /** pure: the events for each stream, in the order of `streams` ([] for none) */
  decide(loaded: readonly LoadedStream<S>[]): readonly (readonly E[])[];
  meta: AppendMeta;
  idempotency?: Idempotency;
  /** the caller's answer, from each stream's state after the command and its events */
  respond(states: readonly S[], events: readonly (readonly E[])[]): R;
};

export type CommandOutcome<R> = {
  result: R;
  /** global position the command reached; queries wait for it (read-your-writes) */
  position: number;
  /** true when an idempotency key replayed a stored response */
  replayed: boolean;
};

// Version conflicts are retried with jitter: under contention (8 claimants of one package) each
// retry reloads and re-decides on the new state, so losers get the domain's answer, not a 412.
// Only a version conflict is retried: a domain error is the answer and must not wait out 20 retries.
const retry = {
  retries: 20,
  minTimeout: 2,
  maxTimeout: 100,
  factor: 2,
  randomize: true,
  shouldRetryError: isExpectedVersionConflictError,
};

/** What one attempt needs; the meta may depend on what was loaded (the caller's role). */
type Plan<S, E extends Event, R> = Omit<MultiStreamRun<S, E, R>, 'meta' | 'idempotency'> & {
  meta: (loaded: readonly LoadedStream<S>[]) => AppendMeta;
};

type Claim = { scope: string; print: string; reusedCode: string };

const claimOf = (idempotency: Idempotency | undefined): Claim | undefined =>
  idempotency && {
    scope: idempotencyScope(idempotency),
    print: fingerprint(idempotency.operation, idempotency.args),
    reusedCode: idempotency.reusedCode ?? 'conflict',
  };

/**
 * A stored answer for the key: the same input replays it; other input is the contract's
 * "reused" error. A response whose content was shredded since (its append sealed content) is
 * gone: the replay answers `not_found` with reason `content_shredded` (docs/decisions.md).
 */
const replay = <R>(record: IdempotencyRecord, claim: Claim): CommandOutcome<R> => {
  if (record.fingerprint !== claim.print)
    throw domainError(claim.reusedCode, 'idempotency key reused with different input', {
      reason: 'key_reused',
    });
  if (record.shredded)
    throw notFound('the answer to this request held content since deleted', {
      reason: 'content_shredded',
      position: record.position,
    });
  return { result: record.response as R, position: record.position, replayed: true };
};

const load = async <S, E extends Event>(
  log: EventLog,
  stream: CommandStream<S, E>,
): Promise<LoadedStream<S>> => {
  const { state, currentStreamVersion } = await log.aggregateStream<S, E>(stream.name, {
    evolve: stream.evolve,
    initialState: stream.initialState,
  });
  return { state, version: Number(currentStreamVersion) };
};

/**
 * One attempt: load every stream, decide (pure), answer from the evolved states, and append
 * every stream at the version it was loaded at, with the answer as the idempotency response, in
 * one atomic append. A command that emits nothing still records its key (when it has one), so a
 * reuse of the key with other input is caught.
 */
const attempt = async <S, E extends Event, R>(
  log: EventLog,
  plan: Plan<S, E, R>,
  claim: Claim | undefined,
): Promise<CommandOutcome<R>> => {
  const loaded = await Promise.all(plan.streams.map((s) => load(log, s)));
  const decided = plan.decide(loaded);
  if (decided.length !== plan.streams.length)
    throw new TypeError(`decide answered ${decided.length} streams for ${plan.streams.length}`);
  const states = loaded.map((l, i) => decided[i]!.reduce(plan.streams[i]!.evolve, l.state));
  const result = plan.respond(states, decided);
  if (!claim && decided.every((events) => events.length === 0))
    return { result, position: 0, replayed: false };
  const idempotency: IdempotencyClaim | undefined = claim && {
    scope: claim.scope,
    fingerprint: claim.print,
    response: result,
  };
  const appended = await log.appendToStreams(
    plan.streams.map((s, i) => ({
      streamName: s.name,
      events: decided[i]!,
      expectedStreamVersion: BigInt(loaded[i]!.version),
    })),
    { meta: plan.meta(loaded), idempotency },
  );
  return { result, position: Number(appended.lastEventGlobalPosition), replayed: false };
};

/** The one command path: a stored answer first, then attempts, retried on version conflicts. */
const execute = async <S, E extends Event, R>(
  log: EventLog,
  plan: Plan<S, E, R>,
  idempotency: Idempotency | undefined,
): Promise<CommandOutcome<R>> => {
  const claim = claimOf(idempotency);
  const stored = async (): Promise<CommandOutcome<R> | undefined> => {
    const prior = claim && (await log.getIdempotency(claim.scope));
    return prior ? replay(prior, claim!) : undefined;
  };
  const first = await stored();
  if (first) return first;
  const streams = plan.streams.map((s) => s.name);
  // An attempt that waited its turn, or retries a lost race, may find its key answered by the
  // command it waited for: that answer, not a decision on the state it left (which would refuse
  // "already exists").
  const once = (again: boolean) =>
    inTurn(
      log,
      streams,
      async (waited) => (again || waited ? await stored() : undefined) ?? attempt(log, plan, claim),
    );
  try {
    // The first attempt goes without a retry schedule (the retry library builds one per call,
    // a tenth of a command's CPU); only a version conflict starts the jittered retries.
    return await once(false).catch((error: unknown) => {
      if (isExpectedVersionConflictError(error)) return asyncRetry(() => once(true), retry);
      throw error;
    });
  } catch (error) {
    if (error instanceof IdempotencyReplayError && claim) return replay(error.record, claim);
    throw error;
  }
};

/**
 * A command over several streams, atomically: each stream is loaded, `decide` sees them all,
 * and all are appended in one atomic append, each at the version it was loaded at; a race with
 * another writer reloads and re-decides. A client's own expected versions are the decider's to
 * check against `loaded[i].version`.
 */
export const runMultiStreamCommand = <S, E extends Event, R>(
  log: EventLog,
  run: MultiStreamRun<S, E, R>,
): Promise<CommandOutcome<R>> => execute(log, { ...run, meta: () => run.meta }, run.idempotency);

/** A command on one aggregate's stream: the one-stream case of the same path. */
export const runCommand = <State, C extends Command, E extends Event, R>(
  log: EventLog,
  run: CommandRun<State, C, E, R>,
): Promise<CommandOutcome<R>> => {
  const { decider, roleIn } = run;
  return execute<State, E, R>(
    log,
    {
      streams: [{ name: run.stream, evolve: decider.evolve, initialState: decider.initialState }],
      decide: ([loaded]) => {
        const decided = decider.decide(run.command, loaded!.state);
        return [Array.isArray(decided) ? decided : [decided]];
      },
      meta: ([loaded]) => (roleIn ? { ...run.meta, actor_role: roleIn(loaded!.state) } : run.meta),
      respond: ([state], [events]) => run.respond(state!, events as E[]),
    },
    run.idempotency,
  );
};
