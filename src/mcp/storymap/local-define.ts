import { createHash } from 'node:crypto';
import { z } from 'zod';
import { cancelledAmong, type CancelledStory } from '../../app/storymap/cancelled.js';
import { findLink } from '../../app/storymap/link.js';
import { domainError } from '../../commands/errors.js';
import { invalidArguments } from '../result.js';
import {
  defineTool,
  type AnyTool,
  type ToolAnnotations,
  type ToolContext,
  type ToolSuccess,
} from '../tool.js';
import { storyMapSurface } from './index.js';

/**
 * How a local story-map tool is made (contracts/storymap.md, "Local server"): a thin
 * delegate to the hosted tool of the same meaning, over the project linked in
 * `.intentlog/config.json`. The hosted tool is looked up by name when the call runs, so a
 * hosted tool this build does not have yet is answered plainly (`not_available`), never faked.
 */
export type Mode = 'core' | 'standard' | 'all';
export const MODES: readonly Mode[] = ['core', 'standard', 'all'];

type Shape = z.ZodRawShape;
type Args<A extends Shape> = z.output<z.ZodObject<A>>;

export type LocalSpec<A extends Shape> = {
  name: string;
  title: string;
  description: string;
  mode: Mode;
  /** the hosted storymap tool this one delegates to */
  hosted: string;
  args: A;
  annotations: ToolAnnotations;
  /** the hosted tool's arguments (project_id is added) */
  toHosted: (args: Args<A>) => Record<string, unknown>;
  /** the stories the call names: a cancelled one stops it (the hard stop) */
  names?: (args: Args<A>) => readonly string[];
  /** reshapes the hosted result for the local contract */
  after?: (result: unknown, args: Args<A>) => unknown;
};

export const StoryRef = z
  .string()
  .min(1)
  .max(200)
  .describe('a story key like PB-42, a full UUID, or a UUID prefix');

/** The hosted tool of that name in this build, or undefined. */
export const hostedTool = (name: string): AnyTool | undefined =>
  storyMapSurface.tools.find((t) => t.name === name);

const notAvailable = (local: string, hosted: string) =>
  domainError(
    'not_available',
    `${local} is not available in this build: it delegates to the hosted story-map tool ${hosted}, which this build does not have yet.`,
    { tool: local, hosted_tool: hosted },
  );

/** The contract's hard stop: the response starts "Development of … was cancelled". */
export const cancelledStop = (story: CancelledStory) =>
  domainError(
    'story_cancelled',
    `Development of ${story.key} "${story.title}" was cancelled` +
      (story.reason ? ` (${story.reason})` : '') +
      '. Stop all work on this story now: do not retry, do not change its code, tests or ' +
      'criteria. Pick another story (list_stories) or ask the founder.',
    {
      story_id: story.story_id,
      key: story.key,
      title: story.title,
      cancellation_reason: story.reason,
      hard_stop: true,
    },
  );

/**
 * The session the local server names for itself, for the hosted tools that take one: the linked
 * directory. Stateless HTTP gives a call no session, and the local contract has no `session`
 * argument; the hosted tool ignores the name where the transport has a session (stdio,
 * stateful HTTP) and scopes it to the caller, so one actor's agent in one linked directory
 * holds its claim across calls and server restarts.
 */
const localSession = (root: string): string => {
  const name = `local:${root}`;
  // the hosted `session` is at most 200 characters
  return name.length <= 200
    ? name
    : `local:sha256:${createHash('sha256').update(root).digest('hex').slice(0, 32)}`;
};

const withSession = (hosted: string, args: Record<string, unknown>, root: string) =>
  hostedTool(hosted)?.input.shape.session !== undefined && args.session === undefined
    ? { ...args, session: localSession(root) }
    : args;

/** Runs the hosted tool with the linked project, as if the caller had named it. */
const delegate = async (
  local: string,
  hosted: string,
  args: Record<string, unknown>,
  projectId: string,
  ctx: ToolContext,
): Promise<ToolSuccess<unknown>> => {
  const tool = hostedTool(hosted);
  if (!tool) throw notAvailable(local, hosted);
  const parsed = tool.input.safeParse({ ...args, project_id: projectId });
  if (!parsed.success) throw invalidArguments(parsed.error.issues);
  return tool.run(parsed.data, ctx);
};

export const localTool = <A extends Shape>(spec: LocalSpec<A>): AnyTool => {
  // the hosted tool's card, when it renders one (its result carries the card)
  const meta = hostedTool(spec.hosted)?.meta;
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: z.strictObject(spec.args),
    output: z.unknown(),
    annotations: spec.annotations,
    tier: spec.mode,
    ...(meta ? { meta } : {}),
    async run(input, ctx) {
      const args = input as Args<A>;
      const { project_id, root } = await findLink();
      const refs = spec.names?.(args) ?? [];
      if (refs.length > 0) {
        const cancelled = await cancelledAmong(ctx.app, project_id, refs, ctx.principal);
        if (cancelled) throw cancelledStop(cancelled);
      }
      const hostedArgs = withSession(spec.hosted, spec.toHosted(args), root);
      const answer = await delegate(spec.name, spec.hosted, hostedArgs, project_id, ctx);
      return {
        ...answer,
        project_id,
        result: spec.after ? spec.after(answer.result, args) : answer.result,
      };
    },
  });
};
