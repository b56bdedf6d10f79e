import type { getBuildOrder } from '../../app/storymap/queries.js';

type Answer = Awaited<ReturnType<typeof getBuildOrder>>;
type Listed = Answer['order'][number] | Answer['unsequenced'][number];

/** Free text on one line of a tab-separated row: as it is, or JSON-quoted when it would break the row. */
const cell = (text: string): string =>
  /[\t\n\r"]/.test(text) || text === '' || text === '-' ? JSON.stringify(text) : text;

/**
 * get_build_order's text block, for hosts that show the model only text: the order itself, one
 * short tab-separated row per story (position, key, title, status, depends_on by key), not every
 * field. Each field of the contract is in structuredContent; the text block repeating all of them
 * made a third of the response on 2,000 stories (324 of 925 KB), and encoding and parsing the
 * response is most of a call's time (docs/decisions.md). `depends_on` names stories by key where
 * the story is listed here, by id otherwise.
 */
export const buildOrderText = (answer: Answer, projectId: string): string =>
  `project_id ${projectId}\tgenerated_at ${answer.generated_at}\n${listedText(answer)}`;

/**
 * The rows, made once per listing: `answer.order` is the same frozen array for every read at one
 * log head (storymap/queries.ts), so a repeated call at that head reuses them.
 */
const listed = new WeakMap<Answer['order'], string>();
const listedText = (answer: Answer): string => {
  const known = listed.get(answer.order);
  if (known !== undefined) return known;
  const text = rowsText(answer);
  listed.set(answer.order, text);
  return text;
};

const ORDER_HEADER =
  'position\tkey\ttitle\tstatus\tdepends_on; id, activity, effort, priority, build_sequence and reason are in structuredContent (get_story for one story)';
const UNSEQUENCED_HEADER = 'key\ttitle\tstatus\trelease\tdepends_on\treason';

const rowsText = (answer: Answer): string => {
  const all = [...answer.order, ...answer.unsequenced];
  const keyOf = new Map(all.map((s) => [s.id, s.key]));
  const deps = (s: Listed) =>
    s.depends_on.length === 0 ? '-' : s.depends_on.map((d) => keyOf.get(d) ?? d).join(',');
  const lines = [
    answer.note,
    `order (${answer.order.length}): ${ORDER_HEADER}`,
    ...answer.order.map((s, i) => [i + 1, s.key, cell(s.title), s.status, deps(s)].join('\t')),
    `unsequenced (${answer.unsequenced.length}): ${UNSEQUENCED_HEADER}`,
    ...answer.unsequenced.map((s) =>
      [s.key, cell(s.title), s.status, s.release, deps(s), cell(s.reason)].join('\t'),
    ),
  ];
  return lines.join('\n');
};
