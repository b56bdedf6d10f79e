/**
 * Ids ordered by a sequence number, read newest first: one of a snapshot's lists (a task's
 * active user-explicit claims, say). A new claim has the highest number of its task, so adding
 * is a push; taking one out is a binary search and a splice (a move of pointers, microseconds
 * at 10,000), and reading the first k costs k. Numbers are unique within a list.
 */
export class SeqList {
  readonly #seqs: number[] = [];
  readonly #ids: string[] = [];

  get size(): number {
    return this.#ids.length;
  }

  /** Where `seq` is, or would go to keep the numbers ascending. */
  #at(seq: number): number {
    let lo = 0;
    let hi = this.#seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#seqs[mid]! < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(seq: number, id: string): void {
    const last = this.#seqs.length - 1;
    if (last < 0 || this.#seqs[last]! < seq) {
      this.#seqs.push(seq);
      this.#ids.push(id);
      return;
    }
    const i = this.#at(seq);
    if (this.#seqs[i] === seq) return;
    this.#seqs.splice(i, 0, seq);
    this.#ids.splice(i, 0, id);
  }

  delete(seq: number): void {
    const i = this.#at(seq);
    if (this.#seqs[i] !== seq) return;
    this.#seqs.splice(i, 1);
    this.#ids.splice(i, 1);
  }

  *newest(): Generator<string> {
    for (let i = this.#ids.length - 1; i >= 0; i--) yield this.#ids[i]!;
  }
}
