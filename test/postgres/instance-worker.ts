// One intentlog instance in a child process, for the multi-instance PostgreSQL tests. It opens
// the log, prints {"ready":true}, waits for "go" on stdin, runs its workload and prints one JSON
// line per acknowledged append ({"ack":…}) and, at the end, {"done":…}.
import { createInterface } from 'node:readline';
import {
  CommandHandler,
  isExpectedVersionConflictError,
  STREAM_DOES_NOT_EXIST,
  type Event,
} from '@event-driven-io/emmett';
import { IdempotencyReplayError, openCatalog, streamName } from '../../src/events/index.js';
import { openPostgresEventLog } from '../../src/events/postgres/index.js';

export type WorkerPlan = {
  url: string;
  worker: string;
  /** plain appends: projects × streams × rounds, streams of their own */
  projects: string[];
  streams: number;
  rounds: number;
  /** streams every worker races to create (STREAM_DOES_NOT_EXIST) */
  claims: number;
  /** increments of one shared counter through Emmett's CommandHandler */
  increments: number;
  /** idempotency scopes every worker claims */
  scopes: string[];
  /** keep appending until killed (the crash test) */
  forever?: boolean;
};

const plan = JSON.parse(process.argv[2]!) as WorkerPlan;
const print = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);
const s = (projectId: string, aggregateId: string) =>
  streamName({ aggregateType: 'thing', projectId, aggregateId });

const log = await openPostgresEventLog(plan.url, openCatalog);
const lines = createInterface({ input: process.stdin });
const go = new Promise<void>((resolve) => lines.on('line', (l) => l === 'go' && resolve()));
print({ ready: true });
await go;

const plain = async (project: string, stream: number) => {
  for (let round = 1; plan.forever || round <= plan.rounds; round++) {
    const tag = `${plan.worker}/${project}/${stream}/${round}`;
    const size = (round % 3) + 1;
    const events = Array.from({ length: size }, (_, i) => ({
      type: 'thing.happened',
      data: { tag, i },
    }));
    await log.appendToStream(s(project, `${plan.worker}-${stream}`), events);
    print({ ack: { tag, size } });
  }
};

const claim = async (c: number) => {
  try {
    await log.appendToStream(
      s('shared', `claim-${c}`),
      [{ type: 'claim.won', data: { by: plan.worker } }],
      {
        expectedStreamVersion: STREAM_DOES_NOT_EXIST,
      },
    );
    return [c, true] as const;
  } catch (error) {
    if (!isExpectedVersionConflictError(error)) throw error;
    return [c, false] as const;
  }
};

const counter = CommandHandler<number, Event>({
  evolve: (state, event) => Math.max(state, Number(event.data.n)),
  initialState: () => 0,
});
const retry = {
  onVersionConflict: {
    retries: 200,
    minTimeout: 1,
    maxTimeout: 30,
    factor: 1.3,
    shouldRetryError: isExpectedVersionConflictError,
  },
};
const increment = () =>
  counter(
    log,
    s('shared', 'counter'),
    (n) => ({ type: 'counter.incremented', data: { n: n + 1, by: plan.worker } }),
    { retry },
  );

const idempotent = async (scope: string) => {
  try {
    await log.appendToStream(
      s('shared', `idem-${plan.worker}`),
      [{ type: 'idem.done', data: { scope, by: plan.worker } }],
      {
        idempotency: { scope, fingerprint: 'fp', response: { by: plan.worker } },
      },
    );
    return { scope, committed: true };
  } catch (error) {
    if (!(error instanceof IdempotencyReplayError)) throw error;
    return { scope, committed: false, replayed: error.record.response };
  }
};

const [, claims, increments, idem] = await Promise.all([
  Promise.all(
    plan.projects.flatMap((p) => Array.from({ length: plan.streams }, (_, i) => plain(p, i + 1))),
  ),
  Promise.all(Array.from({ length: plan.claims }, (_, i) => claim(i + 1))),
  Promise.all(Array.from({ length: plan.increments }, increment)),
  Promise.all(plan.scopes.map(idempotent)),
]);
const appendId = await log.appendToStream(s('shared', 'append-id'), [{ type: 'once', data: {} }], {
  appendId: 'shared-append',
});
print({
  done: {
    claims: Object.fromEntries(claims),
    versions: increments.map((r) => Number(r.nextExpectedStreamVersion)),
    idempotency: idem,
    appendId: {
      ...appendId,
      nextExpectedStreamVersion: String(appendId.nextExpectedStreamVersion),
      lastEventGlobalPosition: String(appendId.lastEventGlobalPosition),
    },
  },
});
await log.close();
process.exit(0); // stdin is still open
