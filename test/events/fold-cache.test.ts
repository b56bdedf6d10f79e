import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldCache } from '../../src/events/fold-cache.js';

const evolve = (s: number) => s + 1;
const other = (s: number) => s + 2;

describe('fold cache: bounded by weight, least recently used first', () => {
  it('evicts the least recently used entries once the weight passes the budget, never all', () => {
    const folds = foldCache(100);
    for (let i = 0; i < 5; i++) folds.set(evolve, `s${i}`, { state: i, version: 19 });
    assert.deepEqual(folds.stats(), { entries: 5, weight: 100 });
    folds.get(evolve, 's0'); // s0 is now the most recently used
    folds.set(evolve, 's5', { state: 5, version: 19 });
    assert.equal(folds.get(evolve, 's1'), undefined, 's1 was the least recently used');
    for (const kept of ['s0', 's2', 's3', 's4', 's5']) assert.ok(folds.get(evolve, kept));
    assert.deepEqual(folds.stats(), { entries: 5, weight: 100 });
  });

  it('keeps one entry heavier than the budget while it is the newest', () => {
    const folds = foldCache(100);
    folds.set(evolve, 'small', { state: 0, version: 3 });
    folds.set(evolve, 'huge', { state: 0, version: 10_000 });
    assert.equal(folds.get(evolve, 'small'), undefined);
    assert.equal(folds.get(evolve, 'huge')?.version, 10_000);
  });

  it('keys by fold and stream, and replaces an entry with its weight', () => {
    const folds = foldCache(1000);
    folds.set(evolve, 's', { state: 1, version: 1 });
    folds.set(other, 's', { state: 2, version: 1 });
    folds.set(evolve, 's', { state: 3, version: 9 });
    assert.equal(folds.get(evolve, 's')?.state, 3);
    assert.equal(folds.get(other, 's')?.state, 2);
    assert.deepEqual(folds.stats(), { entries: 2, weight: 12 });
    folds.clear();
    assert.deepEqual(folds.stats(), { entries: 0, weight: 0 });
  });
});
