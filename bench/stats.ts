export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

/** Runs `fn` `times` times (sequentially) and returns the median of what it measured. */
export const medianOf = async (times: number, fn: () => Promise<number>): Promise<number> => {
  const runs: number[] = [];
  for (let i = 0; i < times; i++) runs.push(await fn());
  return median(runs);
};

export const perSecond = (count: number, ms: number): number => (count / ms) * 1000;

export const fmt = (n: number): string =>
  n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 2);

export const pct = (ratio: number): string => `${(ratio * 100).toFixed(0)}%`;
