import { realpath } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { domainError } from '../../commands/errors.js';
import { isProjectFileError, readProjectFile, writeProjectFile } from '../project/files.js';
import { makeDirs } from '../../events/make-dirs.js';

/**
 * The link between a working directory and a story-map project: `.intentlog/config.json` in
 * the project's root (the contract's `.intent/config.json`, named for this product). The local
 * story-map server reads it, so none of its tools takes a project_id; `intentlog storymap link`
 * writes it.
 */
export const LINK_DIR = '.intentlog';
export const LINK_FILE = 'config.json';

export const LinkConfig = z.looseObject({
  project_id: z.string().min(1).max(128),
  /** the project's name when it was linked, for a person reading the file */
  name: z.string().optional(),
  linked_at: z.string().optional(),
});
export type LinkConfig = z.infer<typeof LinkConfig>;

export type Linked = LinkConfig & { root: string; file: string };

/** Where the local server looks first: `INTENTLOG_ROOT`, else the directory it was started in. */
export const workingRoot = (): string => resolve(process.env.INTENTLOG_ROOT || process.cwd());

const NOT_LINKED = 'not_linked';

const LINK_PATH = `${LINK_DIR}/${LINK_FILE}`;

/** The link file of `dir`, read without following a link out of it (project/files.ts). */
const readLink = async (dir: string, file: string): Promise<LinkConfig | undefined> => {
  const root = await realpath(dir).catch(() => undefined);
  if (root === undefined) return undefined;
  let text: string | undefined;
  try {
    text = (await readProjectFile(root, LINK_PATH))?.toString('utf8');
  } catch (error) {
    if (!isProjectFileError(error)) return undefined;
    throw domainError(
      'link_invalid',
      `${file} is a link or leads out of ${dir}: link the project again`,
      {
        file,
      },
    );
  }
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw domainError('link_invalid', `${file} is not JSON: link the project again`, { file });
  }
  const parsed = LinkConfig.safeParse(json);
  if (!parsed.success)
    throw domainError('link_invalid', `${file} names no project_id: link the project again`, {
      file,
    });
  return parsed.data;
};

/**
 * The project linked to `from` or the nearest directory above it that holds
 * `.intentlog/config.json` (as git finds its repository from a subdirectory). Refused as
 * `not_linked` with the command that fixes it.
 */
export const findLink = async (from: string = workingRoot()): Promise<Linked> => {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const file = join(dir, LINK_DIR, LINK_FILE);
    const config = await readLink(dir, file);
    if (config) return { ...config, root: dir, file };
    if (dirname(dir) === dir) break;
  }
  throw domainError(
    NOT_LINKED,
    `No story-map project is linked to ${from}: run \`intentlog storymap link <project_id>\` in the project's directory (it writes ${LINK_DIR}/${LINK_FILE}).`,
    { searched_from: from },
  );
};

/**
 * Writes the link into `<root>/.intentlog/config.json` (atomically: an exclusive temporary
 * renamed), refused where a link would lead the write out of the root.
 */
export const writeLink = async (root: string, config: LinkConfig): Promise<string> => {
  const file = join(resolve(root), LINK_DIR, LINK_FILE);
  // the directory linked is the caller's own choice (the CLI's working directory): made if new
  makeDirs(resolve(root));
  try {
    await writeProjectFile(await realpath(root), LINK_PATH, `${JSON.stringify(config, null, 2)}\n`);
  } catch (error) {
    if (!isProjectFileError(error)) throw error;
    throw domainError('link_invalid', `${file}: ${error.message}; nothing was written`, { file });
  }
  return file;
};
