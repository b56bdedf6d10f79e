import { randomBytes, randomInt } from 'node:crypto';
import { chmod, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { z } from 'zod';
import { missionsError } from '../../commands/missions/errors.js';
import {
  createProjectFile,
  listProjectDir,
  readProjectFile,
  removeProjectFile,
} from '../project/files.js';
import {
  CODE_ALPHABET,
  hashOwnerCode,
  type FreshChallenge,
} from '../../commands/missions/owner-gate.js';
import { makeDirs } from '../../events/make-dirs.js';

/**
 * The owner channel: a one-time code goes to a mode-0600 file in an owner directory outside the
 * data home, where the person at the keyboard reads it (`intentlog owner code`). The log keeps
 * only a salted hash. This is as strong as the file-system boundary between agent and owner.
 */

/** $INTENTLOG_OWNER_DIR, else HAI-MCP's $HAI_OWNER_HOME, else ~/.intentlog-owner (blank: unset). */
export const defaultOwnerDir = (): string =>
  process.env.INTENTLOG_OWNER_DIR ||
  process.env.HAI_OWNER_HOME ||
  join(homedir(), '.intentlog-owner');

/** A pending code as its `<challenge_id>.json` holds it. */
export const PendingCode = z.object({
  code: z.string(),
  challenge_id: z.string(),
  project_id: z.string(),
  /** the project's directory on this device, so the owner knows which project it is */
  project_root: z.string().nullable().optional(),
  operation: z.string(),
  expires_at: z.string(),
  change: z.unknown(),
  /** what the code approves, in words the owner reads: the text, the diff, the reason */
  approves: z.object({ text: z.string(), sha256: z.string() }).nullable().optional(),
});
export type PendingCode = z.infer<typeof PendingCode>;

/** How much of an approved text the owner's message shows (its hash covers all of it). */
export const SHOWN_CHARS = 2000;

/** The approved text as the owner reads it: cut at SHOWN_CHARS, said so when cut. */
export const shownText = (text: string): string =>
  text.length > SHOWN_CHARS
    ? `${text.slice(0, SHOWN_CHARS)}\n… (${text.length - SHOWN_CHARS} more characters; the hash covers all)`
    : text;

/**
 * HAI-MCP's owner message (`<challenge_id>.txt`): the code on the first line, then what it
 * approves. Its owner workflow reads this file; `intentlog owner code` reads the JSON beside it.
 */
const ownerMessage = (p: PendingCode): string =>
  [
    `HAI owner code: ${p.code}`,
    `action: ${p.operation}`,
    `project: ${p.project_id}${p.project_root ? ` at ${p.project_root}` : ''}`,
    ...(p.approves
      ? [`approves (${p.approves.sha256}):`, shownText(p.approves.text)]
      : [`approves: ${JSON.stringify(p.change)}`]),
    `expires: ${p.expires_at}`,
    'Give this code to your agent to approve exactly this change. To deny, do nothing: it expires.',
    '',
  ].join('\n');

const inside = (parent: string, child: string) => {
  const rel = relative(resolve(parent), resolve(child));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

const newCode = (): string =>
  Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

/** The owner directory as its files are opened: canonical, or undefined when it is absent. */
const canonicalDir = (ownerDir: string) => realpath(ownerDir).catch(() => undefined);

/** A file of the owner directory that holds no code: its name and why. */
export type SkippedFile = { file: string; reason: string };

/** The code a file holds, or why it holds none. */
const codeIn = async (dir: string, file: string): Promise<PendingCode | SkippedFile> => {
  const bytes = await readProjectFile(dir, file).catch(() => undefined);
  if (bytes === undefined) return { file, reason: 'not a file this reader opens' };
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { file, reason: 'not JSON' };
  }
  const parsed = PendingCode.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  return {
    file,
    reason: `not a pending code (${issue.path.join('.') || 'the file'}: ${issue.message})`,
  };
};

/**
 * Codes not yet expired, newest first: what `intentlog owner code` shows. Read through
 * project/files.ts: a link planted in the directory is not followed (and not shown). A file that
 * holds no code (malformed, `null`, another shape) is skipped and named in `skipped`: one bad
 * file must not hide every valid code (issue 40).
 */
export const pendingCodes = async (
  ownerDir: string,
  now: string,
): Promise<{ codes: PendingCode[]; skipped: SkippedFile[] }> => {
  const dir = await canonicalDir(ownerDir);
  if (dir === undefined) return { codes: [], skipped: [] };
  const names = (await listProjectDir(dir, '.')).filter((n) => n.endsWith('.json')).sort();
  const read = await Promise.all(names.map((n) => codeIn(dir, n)));
  const skipped = read.filter((r): r is SkippedFile => 'reason' in r);
  const codes = read
    .filter((r): r is PendingCode => !('reason' in r) && r.expires_at > now)
    .sort((a, b) => b.expires_at.localeCompare(a.expires_at));
  return { codes, skipped };
};

export const ownerChannel = (ownerDir: string, dataDir: string) => {
  const ready = async () => {
    if (inside(dataDir, ownerDir) || inside(ownerDir, dataDir))
      throw missionsError(
        'owner_channel_unavailable',
        'the owner directory must be outside the data home',
        { owner_dir: ownerDir },
      );
    try {
      makeDirs(ownerDir, 0o700);
      await chmod(ownerDir, 0o700);
    } catch {
      throw missionsError('owner_channel_unavailable', 'the owner directory cannot be written', {
        owner_dir: ownerDir,
      });
    }
  };
  const file = (challengeId: string) => `${challengeId}.json`;
  const message = (challengeId: string) => `${challengeId}.txt`;
  return {
    name: 'file',
    /** A fresh code delivered to the owner; the decider gets only its salted hash. */
    async deliver(
      challenge: Omit<FreshChallenge, 'code_salt' | 'code_hash' | 'channel'>,
      about: Omit<PendingCode, 'code' | 'challenge_id' | 'expires_at'>,
    ): Promise<FreshChallenge> {
      await ready();
      const code = newCode();
      const code_salt = randomBytes(16).toString('hex');
      const pending: PendingCode = {
        code: `${code.slice(0, 4)}-${code.slice(4)}`,
        ...challenge,
        ...about,
      };
      try {
        const dir = (await canonicalDir(ownerDir))!;
        const text = `${JSON.stringify(pending, null, 2)}\n`;
        await createProjectFile(dir, file(challenge.challenge_id), text, 0o600);
        await createProjectFile(dir, message(challenge.challenge_id), ownerMessage(pending), 0o600);
      } catch {
        throw missionsError(
          'owner_channel_unavailable',
          'the code could not be delivered to the owner',
          { owner_dir: ownerDir },
        );
      }
      return {
        ...challenge,
        code_salt,
        code_hash: hashOwnerCode(code_salt, code),
        channel: 'file',
      };
    },
    /** Removes a delivered code that no challenge uses (or one that is spent). */
    async discard(challengeId: string) {
      const dir = await canonicalDir(ownerDir);
      if (dir === undefined) return;
      await removeProjectFile(dir, file(challengeId));
      await removeProjectFile(dir, message(challengeId));
    },
  };
};

export type OwnerChannel = ReturnType<typeof ownerChannel>;
