/**
 * Seeding a big story map for the story-map benches, through the app's command path (the same
 * functions the tools call), in batches: create_stories of `batch` rows per atomic append,
 * then update_stories of `batch` rows for notes, dependencies and build sequence. Dependencies
 * form a DAG (each story depends on earlier ones), at most `edges` of them.
 */
import type { App } from '../src/app/app.js';
import { storymap } from '../src/app/storymap/index.js';
import type { Principal } from '../src/commands/principal.js';
import type { OrderRow } from '../src/projections/storymap/order.js';

export type SeedOptions = {
  stories: number;
  /** criteria per story, the first of them a must */
  criteria: number;
  edges: number;
  batch: number;
  /** the map's name (default "Bench Map"): a map of the same name and idea is the same map */
  name?: string;
  /** text for each story's fields (default: numbered placeholders) */
  text?: {
    title(i: number): string;
    i_want(i: number): string;
    criterion(i: number, c: number): string;
    note?(i: number): string;
  };
};

export type Seeded = { project_id: string; rows: OrderRow[]; edges: number };

export const FOUNDER: Principal = { kind: 'actor', actor_id: 'founder' };

/** A new map with its vision complete (stories may be added): its project's id. */
export const newMap = async (
  app: App,
  owner: Principal = FOUNDER,
  name = 'Bench Map',
): Promise<string> => {
  const sm = storymap(app);
  const { project_id } = await sm.createProject({ name, idea: 'a big map', client: null }, owner);
  await sm.setVision(
    { project_id, answers: { users: 'u', problem: 'p', switch: 's', first: 'f', proof: 'p' } },
    owner,
  );
  return project_id;
};

const placeholder = {
  title: (i: number) => `Story ${i + 1}`,
  i_want: (i: number) => `to do thing ${i + 1}`,
  criterion: (i: number, c: number) => `Given ${c}, when ${i}, then done`,
};

/** Each story depends on the one before it, and every other one also on the story at half. */
const dagOf = (n: number, max: number) => {
  let edges = 0;
  return Array.from({ length: n }, (_, i) =>
    (i === 0 ? [] : i % 2 === 0 ? [i - 1, Math.floor(i / 2)] : [i - 1])
      .filter((j) => j >= 0 && j < i)
      .filter(() => edges++ < max),
  );
};

export const seedMap = async (
  app: App,
  options: SeedOptions,
  owner: Principal = FOUNDER,
): Promise<Seeded> => {
  const sm = storymap(app);
  const text: NonNullable<SeedOptions['text']> = options.text ?? placeholder;
  const project_id = await newMap(app, owner, options.name);
  for (let start = 0; start < options.stories; start += options.batch) {
    const size = Math.min(options.batch, options.stories - start);
    const stories = Array.from({ length: size }, (_, k) => {
      const i = start + k;
      return {
        title: text.title(i),
        activity: `Activity ${i % 12}`,
        i_want: text.i_want(i),
        release_order: 1,
        acceptance_criteria: Array.from({ length: options.criteria }, (_, c) => ({
          text: text.criterion(i, c),
          priority: c === 0 ? 'must' : 'should',
        })),
      };
    });
    await sm.createStories({ project_id, stories }, owner);
  }
  await sm.reads.fresh();
  const rows = (await sm.reads.rows(project_id)).sort((a, b) => a.number - b.number);
  const deps = dagOf(rows.length, options.edges);
  for (let start = 0; start < rows.length; start += options.batch)
    await sm.updateStories(
      {
        project_id,
        stories: rows.slice(start, start + options.batch).map((r, k) => {
          const i = start + k;
          return {
            id: r.id,
            ...(options.edges > 0 ? { dependencies: deps[i]!.map((j) => rows[j]!.id) } : {}),
            build_sequence: i + 1,
            ...(text.note ? { notes: text.note(i) } : {}),
          };
        }),
      },
      owner,
    );
  await app.waitFor(await app.log.head());
  return { project_id, rows, edges: deps.reduce((n, d) => n + d.length, 0) };
};

/**
 * The founder marks stories ready_for_dev (`intentlog founder ready`), `inFlight` at a time:
 * one command per story, as the CLI does it.
 */
export const markReady = async (
  app: App,
  projectId: string,
  ids: readonly string[],
  inFlight = 16,
  owner: Principal = FOUNDER,
) => {
  const sm = storymap(app);
  // the first alone: it folds the map's stream once for the fold cache, where 16 cold loads
  // at once would each fold all of it
  let next = 0;
  if (ids.length > 0)
    await sm.founderMark(
      { project_id: projectId, story_id: ids[next++]!, to: 'ready_for_dev' },
      owner,
    );
  const worker = async () => {
    while (next < ids.length) {
      const story_id = ids[next++]!;
      await sm.founderMark({ project_id: projectId, story_id, to: 'ready_for_dev' }, owner);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
};
