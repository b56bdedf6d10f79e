import type { App } from '../src/app/app.js';
import { storymap } from '../src/app/storymap/index.js';
import { SYSTEM } from '../src/commands/principal.js';
import { newMap } from './storymap-seed.js';

/**
 * The web benches' story map: 2,000 stories (WEB_BENCH_STORIES) and notes on them until the log
 * holds about 20,000 events (WEB_BENCH_EVENTS), a long-lived map.
 */
export const STORIES = Number(process.env.WEB_BENCH_STORIES ?? 2000);
const EVENTS = Number(process.env.WEB_BENCH_EVENTS ?? 20_000);
const ACTIVITIES = ['Collect', 'Design', 'Review', 'Buy', 'Ship', 'Support'];

/** Fills the map and waits for the read models; its project's id. */
export const fill = async (app: App) => {
  const sm = storymap(app);
  const project_id = await newMap(app, SYSTEM);
  for (let n = 0; n < STORIES; n += 50)
    await sm.createStories(
      {
        project_id,
        stories: Array.from({ length: Math.min(50, STORIES - n) }, (_, i) => ({
          title: `Story ${n + i}`,
          activity: ACTIVITIES[(n + i) % ACTIVITIES.length]!,
          release_order: 1 + ((n + i) % 4),
          acceptance_criteria: [{ text: `criterion of ${n + i}`, priority: 'must' }],
        })),
      },
      SYSTEM,
    );
  // notes until the log holds EVENTS events: a long-lived map
  for (let k = 0; (await app.log.head()) < EVENTS; k += 16)
    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        sm.addNote(
          { project_id, story_id: `BM-${1 + ((k + i) % STORIES)}`, note: `note ${k + i}` },
          SYSTEM,
        ),
      ),
    );
  await app.waitFor(await app.log.head());
  return project_id;
};
