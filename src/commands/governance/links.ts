import { invalidArgument } from '../errors.js';
import { requireRole, Roles } from './roles.js';
import {
  artifactKey,
  commitKey,
  onPackage,
  requirePackage,
  type CommandOf,
  type WorkPackage,
  type WorkPackageEvent,
} from './work-package-state.js';

/** A git (SHA-1 or SHA-256) object id, full or abbreviated to at least 4 digits. */
const OBJECT_ID = /^[0-9a-f]{4,64}$/i;

/** An absolute URI: a scheme, then something a URL parser accepts. */
const isAbsoluteUri = (uri: string): boolean =>
  /^[a-z][a-z0-9+.-]*:/i.test(uri) && URL.canParse(uri);

export const linkCommit = (
  { by, commit_id, repository }: CommandOf<'LinkCommit'>['data'],
  state: WorkPackage,
): WorkPackageEvent[] => {
  requireRole(by, Roles.member, 'link a commit');
  requirePackage(state);
  if (!OBJECT_ID.test(commit_id))
    throw invalidArgument('commit_id must be a hexadecimal object id of 4 to 64 digits', {
      commit_id,
    });
  // object ids are case-insensitive; one spelling keeps links comparable
  const id = commit_id.toLowerCase();
  if (state.commits.has(commitKey(id, repository))) return [];
  const data = { ...onPackage(state), commit_id: id, repository, linked_by: by.actor_id };
  return [{ type: 'commit.linked', data }];
};

export const linkArtifact = (
  { by, uri, title }: CommandOf<'LinkArtifact'>['data'],
  state: WorkPackage,
): WorkPackageEvent[] => {
  requireRole(by, Roles.member, 'link an artifact');
  requirePackage(state);
  if (!isAbsoluteUri(uri))
    throw invalidArgument('uri must be an absolute URI (with a scheme, such as https:)', { uri });
  if (state.artifacts.has(artifactKey(uri, title))) return [];
  return [
    { type: 'artifact.linked', data: { ...onPackage(state), uri, title, linked_by: by.actor_id } },
  ];
};
