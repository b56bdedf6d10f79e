import { invalidArgument, notFound } from '../../commands/errors.js';
import { runCommand } from '../../commands/handler.js';
import type { Principal } from '../../commands/principal.js';
import { designDecider, designStream } from '../../commands/storymap/design.js';
import { requireMap, resolveStory } from '../../commands/storymap/refs.js';
import { loadMap } from '../../commands/storymap/run.js';
import type { DesignRefView } from '../../projections/storymap/runs.js';
import type { App } from '../app.js';
import { callerOf, metaOf } from './access.js';
import { DESIGN_CONTENT_LIMIT, designHash, designRefsOf, readRepoDesign } from './design.js';
import { findRepoRoot, type RootCandidates } from './root.js';

/** The references get_design can pick on its own: the ones it can fetch. */
const FETCHABLE = new Set(['figma', 'claude-design', 'repo-path']);

const pick = (refs: readonly DesignRefView[], refId: string | undefined, key: string) => {
  if (refs.length === 0)
    throw notFound(`${key} has no design references: attach one with save_design`);
  if (refId !== undefined) {
    const ref = refs.find((r) => r.id === refId || (refId.length >= 4 && r.id.startsWith(refId)));
    if (!ref)
      throw notFound(`No design reference ${refId} on ${key}.`, {
        ref_id: refId,
        valid_ref_ids: refs.map((r) => r.id),
      });
    return ref;
  }
  const fetchable = refs.filter((r) => FETCHABLE.has(r.kind));
  if (fetchable.length === 1) return fetchable[0]!;
  throw invalidArgument(
    fetchable.length === 0
      ? `${key} has no Figma, Claude or repository design to fetch: open the references' URLs`
      : `${key} has ${fetchable.length} design references to fetch: pass ref_id`,
    { design_refs: refs.map((r) => ({ id: r.id, kind: r.kind, url: r.url })) },
  );
};

/** What an offline ledger says of a remote design: plainly, nothing fetched. */
const remote = (ref: DesignRefView) => ({
  ref_id: ref.id,
  kind: ref.kind,
  url: ref.url,
  fetched: false,
  content: null,
  drifted: ref.drifted,
  message:
    ref.kind === 'figma'
      ? "Figma isn't configured on this server: it is a local ledger and fetches nothing over the network. Open the URL."
      : ref.kind === 'claude-design'
        ? 'Claude designs are not fetched: this local ledger reaches no network service. Open the URL.'
        : `A ${ref.kind} reference has nothing to fetch: open its URL.`,
});

/**
 * get_design: a repo-path reference is read from the project's bound repository, and its hash
 * and time are recorded (drifted when the hash moved since the last fetch); a remote kind is
 * answered plainly, nothing fetched.
 */
export const getDesign = async (
  app: App,
  args: { project_id: string; story_id: string; ref_id?: string },
  principal: Principal,
  candidates: RootCandidates,
) => {
  const caller = await callerOf(app, args.project_id, principal);
  const story = resolveStory(
    requireMap((await loadMap(app.log, args.project_id)).state),
    args.story_id,
  );
  const ref = pick(
    await designRefsOf(app, args.project_id, story.story_id),
    args.ref_id,
    story.key,
  );
  if (ref.kind !== 'repo-path') return { position: 0, result: remote(ref) };
  const root = await findRepoRoot(app, args.project_id, candidates);
  if (!root.found)
    return {
      position: 0,
      result: { ...remote(ref), message: `Nothing fetched: ${root.reason}.` },
    };
  const file = await readRepoDesign(root.path, ref.url);
  const content_hash = designHash(file.content);
  const outcome = await runCommand(app.log, {
    decider: designDecider,
    stream: designStream(args.project_id, story.story_id),
    command: {
      type: 'RecordFetch',
      data: {
        project_id: args.project_id,
        story_id: story.story_id,
        ref_id: ref.id,
        content_hash,
        caller,
      },
    },
    meta: metaOf(caller),
    respond: (_s, events) => events,
  });
  const fetched = outcome.result[0];
  return {
    position: outcome.position,
    result: {
      ref_id: ref.id,
      kind: ref.kind,
      url: ref.url,
      fetched: true,
      content_type: file.content_type,
      content: file.content.slice(0, DESIGN_CONTENT_LIMIT),
      truncated: file.total_chars > DESIGN_CONTENT_LIMIT,
      fetched_at: app.clock().toISOString(),
      content_hash,
      drifted: fetched?.type === 'storymap.design_fetched' ? fetched.data.drifted : false,
    },
  };
};
