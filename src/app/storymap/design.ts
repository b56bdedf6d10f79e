import { randomUUID } from 'node:crypto';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import { invalidArgument, notFound } from '../../commands/errors.js';
import { runCommand } from '../../commands/handler.js';
import type { Principal } from '../../commands/principal.js';
import { designDecider, designStream, sameRef } from '../../commands/storymap/design.js';
import { requireMap, requireWritable, resolveStory } from '../../commands/storymap/refs.js';
import { loadMap } from '../../commands/storymap/run.js';
import type { DesignKind } from '../../events/storymap/index.js';
import { sha256Hex } from '../../events/index.js';
import { STORYMAP_RUNS, runsModel } from '../../projections/storymap/runs.js';
import type { App } from '../app.js';
import { isProjectFileError, readProjectFile } from '../project/files.js';
import { callerOf, metaOf } from './access.js';

/** The contract's content cap: the first 50,000 characters. */
export const DESIGN_CONTENT_LIMIT = 50_000;

const IMAGE = /\.(png|jpe?g|gif|svg|webp|avif)$/i;

/** The kind a URL names when the caller leaves it out. */
export const inferKind = (url: string): DesignKind => {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return 'repo-path';
  const u = new URL(url);
  if (/(^|\.)figma\.com$/i.test(u.hostname)) return 'figma';
  if (/(^|\.)claude\.ai$/i.test(u.hostname)) return 'claude-design';
  if (u.searchParams.has('path') && u.searchParams.get('path')!.startsWith('/story/'))
    return 'storybook';
  if (IMAGE.test(u.pathname)) return 'image-url';
  return 'other';
};

/** Figma's node id (`1-23` in URLs, `1:23` in its API) or Storybook's story path. */
export const selectorOf = (url: string, kind: DesignKind): string | null => {
  if (kind !== 'figma' && kind !== 'storybook') return null;
  const params = new URL(url).searchParams;
  if (kind === 'figma') return params.get('node-id')?.replace(/-/g, ':') ?? null;
  return params.get('path');
};

/** A repo path must stay inside the repository: relative, no `..` out of it. */
const checkRepoPath = (path: string) => {
  const inside = relative('/repo', resolve('/repo', path));
  if (isAbsolute(path) || inside.startsWith('..') || inside === '')
    throw invalidArgument('a repo-path design reference must be a path inside the repository', {
      field: 'url',
      url: path,
    });
};

export const designRefsOf = async (app: App, projectId: string, storyId: string) => {
  await app.waitFor(await app.log.head(), [STORYMAP_RUNS]);
  return (await runsModel.designRefs.values(app.log.models, projectId, storyId)).sort((a, b) =>
    a.attached_at.localeCompare(b.attached_at),
  );
};

const storyOf = async (app: App, projectId: string, ref: string) => {
  const map = requireMap((await loadMap(app.log, projectId)).state);
  return { map, story: resolveStory(map, ref) };
};

/** save_design: attaches a reference (the same URL and selector twice is one reference). */
export const saveDesign = async (
  app: App,
  args: { project_id: string; story_id: string; url: string; kind?: DesignKind; selector?: string },
  principal: Principal,
) => {
  const caller = await callerOf(app, args.project_id, principal);
  const { map, story } = await storyOf(app, args.project_id, args.story_id);
  requireWritable(map);
  const url = args.url.trim();
  let kind: DesignKind;
  try {
    kind = args.kind ?? inferKind(url);
  } catch {
    throw invalidArgument('url is not a URL or a repository path', { field: 'url', url });
  }
  if (kind === 'repo-path') checkRepoPath(url);
  const selector =
    args.selector?.trim() || (kind === 'repo-path' ? null : selectorOfSafe(url, kind));
  const ref_id = randomUUID();
  const stream = designStream(args.project_id, story.story_id);
  const data = {
    project_id: args.project_id,
    story_id: story.story_id,
    ref_id,
    kind,
    url,
    selector,
  };
  const outcome = await runCommand(app.log, {
    decider: designDecider,
    stream,
    command: { type: 'AttachDesign', data: { ...data, caller } },
    meta: metaOf(caller),
    respond: (s) => ({ existing: sameRef(s, url, selector)!, count: s.refs.length }),
  });
  const { existing, count } = outcome.result;
  const ref = { id: existing.ref_id, kind: existing.kind, url, selector };
  const attached = existing.ref_id === ref_id;
  return {
    position: outcome.position,
    result: {
      story_id: story.story_id,
      story_key: story.key,
      ref,
      design_refs_count: count,
      ...(attached ? {} : { already_attached: true }),
    },
  };
};

const selectorOfSafe = (url: string, kind: DesignKind) => {
  try {
    return selectorOf(url, kind);
  } catch {
    return null;
  }
};

export type FetchedDesign = { content_type: string; content: string; total_chars: number };

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.md': 'text/markdown',
  '.css': 'text/css',
  '.tsx': 'text/typescript',
  '.ts': 'text/typescript',
  '.jsx': 'text/javascript',
  '.js': 'text/javascript',
};

/**
 * Reads a repo-path reference under the bound root, never outside it: through a descriptor held
 * to the root (project/files.ts), so no link, however placed, leads out of it.
 */
export const readRepoDesign = async (root: string, path: string): Promise<FetchedDesign> => {
  let bytes: Buffer | undefined;
  try {
    bytes = await readProjectFile(root, path);
  } catch (error) {
    if (!isProjectFileError(error)) throw error;
    throw invalidArgument(
      error.reason === 'outside_root'
        ? `${path} leads outside the bound repository`
        : `${path} is not a file of the bound repository`,
      { url: path },
    );
  }
  if (bytes === undefined)
    throw notFound(`${path} does not exist in the bound repository`, { url: path });
  const ext = extname(path).toLowerCase();
  const type = TYPES[ext] ?? (IMAGE.test(ext) ? `image/${ext.slice(1)}` : 'text/plain');
  const content =
    type.startsWith('image/') && ext !== '.svg' ? bytes.toString('base64') : bytes.toString('utf8');
  return { content_type: type, content, total_chars: content.length };
};

export const designHash = (content: string) => `sha256:${sha256Hex(content)}`;
