import { timingSafeEqual } from 'node:crypto';
import type { ModelStore } from '../../events/index.js';
import type { PrincipalRef } from '../../events/project/index.js';
import { sha256Hex } from '../../events/index.js';
import { modelKeyPrefix } from '../projector.js';
import { ProjectKeys, type ProjectView, type RosterEntry } from './projects.js';
import { TokenKeys, type TokenView } from './tokens.js';

const under = (model: string, key: string) => `${model}/${key}`;

/** Reads of the shared read models (projects, tokens). */
export const projectQueries = (models: ModelStore) => ({
  project: (projectId: string) =>
    models.get<ProjectView>(under('projects', ProjectKeys.project(projectId))),
  projectOfRoot: (rootHash: string) =>
    models.get<string>(under('projects', ProjectKeys.root(rootHash))),
  /** Every bound root hash with its project (the intent Hooks keep a view file per root). */
  boundRoots: async (): Promise<Map<string, string>> => {
    const prefix = under('projects', modelKeyPrefix('root'));
    const rows = await models.range<string>({ prefix });
    return new Map(
      rows.map(([key, project]) => [decodeURIComponent(key.slice(prefix.length)), project]),
    );
  },
  /** Every project the actor has a role in, with its roles there. */
  membershipsOf: async (actorId: string) => {
    const prefix = under('projects', ProjectKeys.memberPrefix(actorId));
    return (await models.range<RosterEntry['roles']>({ prefix })).map(([key, roles]) => ({
      project_id: decodeURIComponent(key.slice(prefix.length)),
      roles,
    }));
  },
});

export const tokenQueries = (models: ModelStore) => ({
  /** The principal a bearer token names, if it is known and not revoked. */
  async resolve(token: string, now: Date = new Date()): Promise<PrincipalRef | undefined> {
    const hash = sha256Hex(token);
    const id = await models.get<string>(under('tokens', TokenKeys.hash(hash)));
    const view =
      id === undefined ? undefined : await models.get<TokenView>(under('tokens', TokenKeys.id(id)));
    if (!view || view.revoked_at) return undefined;
    if (view.expires_at && view.expires_at <= now.toISOString()) return undefined;
    // the lookup was by hash; compare the stored hash in constant time all the same
    const same = timingSafeEqual(Buffer.from(view.token_hash, 'hex'), Buffer.from(hash, 'hex'));
    return same ? view.principal : undefined;
  },
  /** The token's record whatever its state (revoked, expired), if it is known. */
  async find(token: string): Promise<TokenView | undefined> {
    const id = await models.get<string>(under('tokens', TokenKeys.hash(sha256Hex(token))));
    return id === undefined ? undefined : models.get<TokenView>(under('tokens', TokenKeys.id(id)));
  },
  list: async () =>
    (await models.range<TokenView>({ prefix: under('tokens', TokenKeys.idPrefix) })).map(
      ([, v]) => v,
    ),
});
