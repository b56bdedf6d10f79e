import type { EvidenceItem } from '../../events/missions/index.js';
import { sha256Hex } from '../../events/codec.js';
import { confine, hasNul, inProject } from './paths.js';
import { probeProjectPath, readProjectFile } from '../project/files.js';

/**
 * Evidence for a close: each path confined to the project (a path that lands outside is refused,
 * `path_outside_root`), and only a regular file counts, read through a descriptor held to the
 * root (a link in its place is never followed) and hashed. A directory, a special file or a path
 * with a NUL byte is no evidence: an `invalid_evidence` row, and its criterion stays missing.
 */

/** What a caller names per criterion: `paths`, or HAI-MCP's single `path`. */
export type EvidenceArg = { paths?: string[]; path?: string; note?: string };

export type InvalidEvidence = {
  criterion_id: string;
  path: string;
  error: 'invalid_args';
  message: string;
};

export type VerifiedFile = { path: string; sha256: string; bytes: number };

export type CheckedEvidence = {
  /** per criterion, the paths that were verified (what the log records) */
  verified: Record<string, EvidenceItem>;
  /** per criterion with a verified file: the first one and its hash, and every file */
  hashes: Record<string, { path: string; sha256: string; files: VerifiedFile[] }>;
  /** paths that do not exist */
  unverified: string[];
  invalid: InvalidEvidence[];
};

export const pathsOf = (item: EvidenceArg): string[] => [
  ...(item.paths ?? []),
  ...(item.path === undefined ? [] : [item.path]),
];

const NOT_A_FILE = {
  directory: 'is a directory, not a readable file',
  other: 'is not a regular file',
} as const;

export const checkEvidence = async (
  root: string,
  evidence: Record<string, EvidenceArg>,
): Promise<CheckedEvidence> => {
  const out: CheckedEvidence = { verified: {}, hashes: {}, unverified: [], invalid: [] };
  const refuse = (criterion_id: string, path: string, message: string) =>
    out.invalid.push({ criterion_id, path, error: 'invalid_args', message });
  for (const [id, item] of Object.entries(evidence)) {
    const paths: string[] = [];
    const files: VerifiedFile[] = [];
    for (const p of pathsOf(item)) {
      if (hasNul(p)) {
        refuse(id, p, 'the path contains a NUL byte');
        continue;
      }
      const { relative } = await confine(root, p);
      const found = await inProject(() => probeProjectPath(root, relative));
      if (found === 'missing') out.unverified.push(relative);
      else if (found !== 'file') refuse(id, relative, `${relative} ${NOT_A_FILE[found]}`);
      else {
        const bytes = await inProject(() => readProjectFile(root, relative));
        if (bytes === undefined) out.unverified.push(relative);
        else {
          paths.push(relative);
          files.push({ path: relative, sha256: `sha256:${sha256Hex(bytes)}`, bytes: bytes.length });
        }
      }
    }
    out.verified[id] = { paths, note: item.note ?? null };
    if (files.length > 0) out.hashes[id] = { ...files[0]!, files };
  }
  return out;
};
