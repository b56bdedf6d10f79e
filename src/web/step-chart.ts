import { html, type Html } from './html.js';

/** A count after the event at a global position. */
export type Point = { position: number };

/** One line of a chart: its name, its class (colour), and its value at a point. */
export type Series<P extends Point> = { name: string; className: string; value: (p: P) => number };

const W = 640;
const H = 240;
const PAD = 32;

const line = <P extends Point>(
  points: readonly P[],
  y: (p: P) => number,
  max: { x: number; y: number },
) => {
  const sx = (x: number) => PAD + (x / max.x) * (W - 2 * PAD);
  const sy = (v: number) => H - PAD - (v / max.y) * (H - 2 * PAD);
  let d = `M ${sx(0)} ${sy(0)}`;
  let last = 0;
  for (const p of points) {
    d += ` L ${sx(p.position)} ${sy(last)} L ${sx(p.position)} ${sy(y(p))}`;
    last = y(p);
  }
  return `${d} L ${sx(max.x)} ${sy(last)}`;
};

/**
 * Counts over log positions as a step chart drawn on the server (no library, no script). `label`
 * names what the chart shows for a screen reader; the numbers are in `numbersTable` too.
 */
export const stepChart = <P extends Point>(
  points: readonly P[],
  head: number,
  series: readonly Series<P>[],
  label: string,
): Html => {
  const max = {
    x: Math.max(1, head),
    y: Math.max(1, ...points.flatMap((p) => series.map((s) => s.value(p)))),
  };
  return html`<figure>
    <svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}" class="chart">
      <line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" class="axis" />
      <line x1="${PAD}" y1="${PAD}" x2="${PAD}" y2="${H - PAD}" class="axis" />
      <text x="${PAD}" y="${H - 8}">0</text>
      <text x="${W - PAD}" y="${H - 8}" text-anchor="end">${head}</text>
      <text x="4" y="${PAD}">${max.y}</text>
      ${series.map((s) => html`<path d="${line(points, s.value, max)}" class="${s.className}" />`)}
    </svg>
    <figcaption>
      ${label} ${series.map((s) => html`<span class="key ${s.className}">${s.name}</span> `)}
    </figcaption>
  </figure>`;
};

/** The chart's numbers as a table (its text alternative, folded away). */
export const numbersTable = <P extends Point>(
  points: readonly P[],
  series: readonly Series<P>[],
): Html =>
  html`<details>
    <summary>The numbers</summary>
    <table>
      <thead>
        <tr>
          <th scope="col">Position</th>
          ${series.map((s) => html`<th scope="col">${s.name[0]!.toUpperCase()}${s.name.slice(1)}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${points.map(
          (p) =>
            html`<tr>
              <td>${p.position}</td>
              ${series.map((s) => html`<td>${s.value(p)}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </details>`;
