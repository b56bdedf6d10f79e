import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { WorkerPlan } from './instance-worker.js';

export type Ack = { tag: string; size: number };
export type WorkerDone = {
  claims: Record<string, boolean>;
  versions: number[];
  idempotency: { scope: string; committed: boolean; replayed?: unknown }[];
  appendId: Record<string, unknown>;
};

const worker = fileURLToPath(new URL('./instance-worker.ts', import.meta.url));

/** An intentlog instance in its own process (node --import tsx), driven over stdin/stdout. */
export const spawnInstance = (plan: WorkerPlan) => {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, JSON.stringify(plan)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const acks: Ack[] = [];
  const listeners: (() => void)[] = [];
  let ready!: () => void;
  let done!: (value: WorkerDone) => void;
  const readyP = new Promise<void>((resolve) => (ready = resolve));
  const doneP = new Promise<WorkerDone>((resolve) => (done = resolve));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Asked for lazily: a worker killed on purpose must not leave a rejected promise unhandled.
  const orExit = <T>(p: Promise<T>) =>
    Promise.race([p, exited.then((code) => Promise.reject(new Error(`worker exited (${code})`)))]);
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as { ready?: true; ack?: Ack; done?: WorkerDone };
    if (message.ready) ready();
    if (message.ack) acks.push(message.ack);
    if (message.done) done(message.done);
    for (const listener of listeners) listener();
  });
  return {
    ready: () => orExit(readyP),
    go: () => child.stdin.write('go\n'),
    acks,
    /** resolves once at least n appends are acknowledged */
    acked: (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => acks.length >= n && resolve();
        listeners.push(check);
        check();
      }),
    done: () => orExit(doneP),
    exited,
    kill: () => child.kill('SIGKILL'),
  };
};

export type Instance = ReturnType<typeof spawnInstance>;
