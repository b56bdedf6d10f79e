import { z } from 'zod';
import { storymap } from '../../app/storymap/index.js';
import type { Done } from '../../app/storymap/build.js';
import { claimOf } from '../../app/storymap/build-reads.js';
import { notFound } from '../../commands/errors.js';
import { principalId } from '../../commands/principal.js';
import type { SessionRef } from '../../commands/storymap/build-claim.js';
import type { Call } from './define.js';

/** What the building tools share: the session a call belongs to, and reading after a write. */
export const Session = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe(
    'names this agent session where the transport gives none (stateless HTTP); ignored when the MCP session has an id (stateful HTTP, stdio)',
  );
export const ExpectedVersion = z.number().int().min(0).optional();
export const Text = (max: number) => z.string().min(1).max(max);

/**
 * The session a call belongs to: the MCP session (Mcp-Session-Id, or the stdio process), else
 * the caller's own `session` name (scoped to the caller, so two actors' names never meet).
 */
export const sessionOf = (call: Call, explicit: string | undefined): SessionRef | null => {
  const client = `${call.ctx.served.transport} client`;
  const transport = call.ctx.call.sessionId;
  if (transport) return { session_id: transport, client };
  if (explicit) return { session_id: `${principalId(call.principal)}/${explicit}`, client };
  return null;
};

/** The id a claim is held under, for the services that take one (null: no session). */
export const sessionIdOf = (call: Call, explicit: string | undefined): string | null =>
  sessionOf(call, explicit)?.session_id ?? null;

/** The story as the read models hold it after the write (read-your-writes). */
export const viewAfter = async (call: Call, projectId: string, storyId: string) => {
  const reads = storymap(call.app).reads;
  await reads.fresh();
  const v = await reads.story(projectId, storyId);
  if (!v) throw notFound(`No story found matching "${storyId}"`, { story_id: storyId });
  return v;
};

export const now = (call: Call) => call.app.clock().toISOString();

/** A warning when another live session holds the story this call writes to. */
export const heldWarning = (done: Done, session: SessionRef | null, at: string): string[] => {
  const claim = claimOf(done.story.build, at);
  return claim && claim.state === 'held' && claim.session_id !== session?.session_id
    ? [`${done.story.key} is held by another session (${claim.session_id}, ${claim.by}).`]
    : [];
};
