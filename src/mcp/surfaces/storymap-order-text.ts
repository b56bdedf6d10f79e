import type { getBuildOrder } from '../../app/storymap-queries.js';

type Answer = Awaited<ReturnType<typeof getBuildOrder>>;
type Listed = Answer['order'][number] | Answer['unsequenced'][number];

/** Free text on one line of a tab-separated row: as it is, or JSON-quoted when it would break the row. */
const cell = (text: string): string =>
  /[\t\n\r"]/.test(text) || text === '' || text === '-' ? JSON.stringify(text) : text;

/**
 * get_build_order's text block: the same answer as its structuredContent, every field of every
 * story, as one tab-separated row per story instead of the envelope's JSON a second time. On a
 * map of 2,000 stories the JSON is ~600 KB; carried in both blocks (and escaped inside the text
 * string) it made the response ~1.3 MB, most of the call's time spent encoding and parsing it.
 * Hosts that show the model only text still see every story; `depends_on` names stories by key
 * where the key is listed here (the row gives its id), by id otherwise.
 */
export const buildOrderText = (answer: Answer, projectId: string): string =>
  `project_id ${projectId}\tgenerated_at ${answer.generated_at}\n${listedText(answer)}`;

/**
 * The rows, made once per listing: `answer.order` is the same frozen array for every read at one
 * log head (storymap-queries.ts), so a repeated call at that head reuses them.
 */
const listed = new WeakMap<Answer['order'], string>();
const listedText = (answer: Answer): string => {
  const known = listed.get(answer.order);
  if (known !== undefined) return known;
  const text = rowsText(answer);
  listed.set(answer.order, text);
  return text;
};

const rowsText = (answer: Answer): string => {
  const all = [...answer.order, ...answer.unsequenced];
  const keyOf = new Map(all.map((s) => [s.id, s.key]));
  const deps = (s: Listed) =>
    s.depends_on.length === 0 ? '-' : s.depends_on.map((d) => keyOf.get(d) ?? d).join(',');
  const common = (s: Listed) => [
    s.key,
    s.id,
    cell(s.title),
    cell(s.activity),
    s.effort,
    s.priority,
    s.status,
  ];
  const seq = (s: Listed) => (s.build_sequence === null ? '-' : String(s.build_sequence));
  const lines = [
    answer.note,
    `order (${answer.order.length}): position\tkey\tid\ttitle\tactivity\teffort\tpriority\tstatus\tbuild_sequence\tdepends_on\treason`,
    ...answer.order.map((s, i) =>
      [i + 1, ...common(s), seq(s), deps(s), cell(s.reason)].join('\t'),
    ),
    `unsequenced (${answer.unsequenced.length}; each unsequenced: true, story_url: null): key\tid\ttitle\tactivity\teffort\tpriority\tstatus\tbuild_sequence\trelease\tdepends_on\treason`,
    ...answer.unsequenced.map((s) =>
      [...common(s), seq(s), s.release, deps(s), cell(s.reason)].join('\t'),
    ),
  ];
  return lines.join('\n');
};
