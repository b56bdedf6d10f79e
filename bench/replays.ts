import { inChild } from './child.js';
import type { ReplayArgs } from './child/replay.js';
import { median, perSecond } from './stats.js';

type Replay = { events: number; ms: number; cpuMs: number; peakRss: number; peakAnon: number };
/**
 * Per run, side by side: raw iterate + decode, the bench's view alone, every product read model
 * with it. The ratios are medians of each run's own (its neighbours load all three alike).
 */
export const replays = async (
  dir: string,
  runs: number,
  note: (message: string) => void,
  catalog?: 'product',
) => {
  const step = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    note(`${what} …`);
    return fn();
  };
  const raw: Replay[] = [];
  const view: Replay[] = [];
  const engine: Replay[] = [];
  const replay = (mode: ReplayArgs['mode']) =>
    inChild<Replay>('replay', { dir, mode, ...(catalog ? { catalog } : {}) });
  for (let i = 0; i < runs; i++) {
    raw.push(await step(`raw iterate + decode, run ${i + 1}`, () => replay('raw')));
    if (!catalog)
      view.push(await step(`replay through the bench's view, run ${i + 1}`, () => replay('view')));
    engine.push(
      await step(`replay through every read model, run ${i + 1}`, () => replay('engine')),
    );
  }
  const rate = (r: Replay[]) => median(r.map((x) => perSecond(x.events, x.ms)));
  const ratio = (r: Replay[]) => (r.length === 0 ? 0 : median(r.map((x, i) => raw[i]!.ms / x.ms)));
  return {
    events: engine[0]!.events,
    raw: rate(raw),
    engine: rate(engine),
    view: view.length > 0 ? rate(view) : 0,
    engineRatio: ratio(engine),
    viewRatio: ratio(view),
    cpuMs: { raw: median(raw.map((r) => r.cpuMs)), engine: median(engine.map((r) => r.cpuMs)) },
    peakRss: Math.max(...engine.map((r) => r.peakRss)),
    peakAnon: Math.max(...engine.map((r) => r.peakAnon)),
    rawPeakRss: Math.max(...raw.map((r) => r.peakRss)),
    rawPeakAnon: Math.max(...raw.map((r) => r.peakAnon)),
  };
};
