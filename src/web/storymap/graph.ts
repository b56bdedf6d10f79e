import dagre from '@dagrejs/dagre';
import type { OrderedStory } from '../../projections/storymap/order.js';
import { html, type Html } from '../html.js';

const NODE = { width: 150, height: 44 };
const KEPT = 8;

export type GraphNode = Pick<OrderedStory, 'id' | 'key' | 'title' | 'status' | 'depends_on'>;

type Laid = { svg: Html; width: number; height: number };

/** The graph's identity: the same stories, statuses and edges lay out the same. */
const signature = (nodes: readonly GraphNode[]) =>
  nodes.map((n) => `${n.id}:${n.status}:${n.title}:${n.depends_on.join(',')}`).join('|');

const cache = new Map<string, Laid>();

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

const path = (points: readonly { x: number; y: number }[]) =>
  points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');

/**
 * The build order as a dependency graph, laid out on the server by dagre (a layered layout:
 * a story sits right of every story it depends on) and drawn as SVG: no script, no CDN. An
 * edge points from a dependency to the story that waits on it. Layouts are kept by the graph's
 * signature, so a page reloaded at the same log state costs no layout.
 */
export const dependencyGraph = (nodes: readonly GraphNode[], label: string): Html => {
  const key = signature(nodes);
  let laid = cache.get(key);
  if (!laid) {
    laid = layout(nodes);
    cache.set(key, laid);
    if (cache.size > KEPT) cache.delete(cache.keys().next().value!);
  }
  return html`<svg
    class="graph"
    viewBox="0 0 ${laid.width} ${laid.height}"
    width="${laid.width}"
    height="${laid.height}"
    role="img"
    aria-label="${label}"
  >
    ${laid.svg}
  </svg>`;
};

const layout = (nodes: readonly GraphNode[]): Laid => {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 12, ranksep: 48, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(nodes.map((n) => n.id));
  for (const n of nodes) g.setNode(n.id, { ...NODE });
  const pairs = nodes.flatMap((n) => n.depends_on.filter((d) => ids.has(d)).map((d) => [d, n.id]));
  for (const [from, to] of pairs) g.setEdge(from!, to!);
  dagre.layout(g);
  const edges = pairs.map(([from, to]) => {
    const points = g.edge(from!, to!).points ?? [];
    return html`<path class="edge" d="${path(points)}" marker-end="url(#arrow)" />`;
  });
  const boxes = nodes.map((n) => {
    const { x, y } = g.node(n.id);
    const left = x - NODE.width / 2;
    const top = y - NODE.height / 2;
    return html`<g class="node st-${n.status}">
      <rect x="${left}" y="${top}" width="${NODE.width}" height="${NODE.height}" rx="6" />
      <text x="${left + 8}" y="${top + 17}" class="key">${n.key}</text>
      <text x="${left + 8}" y="${top + 34}">${clip(n.title, 22)}</text>
    </g>`;
  });
  const { width = 0, height = 0 } = g.graph();
  const svg = html`<defs>
      <marker
        id="arrow"
        viewBox="0 0 10 10"
        refX="10"
        refY="5"
        markerWidth="8"
        markerHeight="8"
        orient="auto"
      >
        <path d="M0,0 L10,5 L0,10 z" />
      </marker>
    </defs>
    ${edges} ${boxes}`;
  return { svg, width: Math.ceil(width), height: Math.ceil(height) };
};
