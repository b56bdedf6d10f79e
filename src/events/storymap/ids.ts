import { z } from 'zod';

/** The fields every event of one story carries: which project, which story. */
export const onStory = { project_id: z.string(), story_id: z.string() };
