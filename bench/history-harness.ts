// What the history benches (governance, intent, missions) share: the bytes read models write,
// one measured call, and the small/large rounds that interleave them.
import { performance } from 'node:perf_hooks';
import type { App } from '../src/app/app.js';
import { encode } from '../src/events/index.js';

export type Size = 'small' | 'large';
export type Figures = { cpu: number[]; wall: number[]; bytes: number[] };
export type Row = Record<Size, Figures> & { note: string };
export type Step = {
  name: string;
  note: string;
  call: (size: Size, i: number) => Promise<unknown>;
};

export const step = (name: string, note: string, call: Step['call']): Step => ({
  name,
  note,
  call,
});
const empty = (): Figures => ({ cpu: [], wall: [], bytes: [] });

let written = 0;
/** Counts the bytes the read models hand to the store: every put a projector makes, key and value. */
export const countWrites = (app: App): void => {
  for (const projector of app.projectors) {
    const apply = projector.apply.bind(projector);
    projector.apply = (event, tx) =>
      apply(event, {
        ...tx,
        put(key, value, options) {
          written += key.length + encode(value).length;
          tx.put(key, value, options);
        },
      });
  }
};

/** One call and its read models caught up: CPU and wall ms, read-model bytes written. */
export const measure = async (app: App, figures: Figures, call: () => Promise<unknown>) => {
  const bytes0 = written;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await call();
  await app.waitFor(await app.log.head());
  const cpu = process.cpuUsage(cpu0);
  figures.wall.push(performance.now() - t0);
  figures.cpu.push((cpu.user + cpu.system) / 1000);
  figures.bytes.push(written - bytes0);
};

/**
 * `calls` rounds of the steps, at each size, interleaved: small, large, small, … One round
 * unmeasured first (its own ids: round `calls`), so no figure pays for a first call. `app` is
 * read per call: a bench may restart its server between rounds.
 */
export const compareSizes = async (
  rows: Map<string, Row>,
  app: () => App,
  calls: number,
  ...steps: Step[]
) => {
  for (const { name, note } of steps) rows.set(name, { small: empty(), large: empty(), note });
  for (const size of ['small', 'large'] as const)
    for (const { call } of steps) await call(size, calls);
  for (let i = 0; i < calls; i++)
    for (const size of ['small', 'large'] as const)
      for (const { name, call } of steps)
        await measure(app(), rows.get(name)![size], () => call(size, i));
};
