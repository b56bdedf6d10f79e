import { timingSafeEqual } from 'node:crypto';
import type { ModelStore } from '../events/index.js';
import type { PrincipalRef } from '../events/catalog/project.js';
import { sha256Hex } from '../events/index.js';
import type { ProjectView } from './projects.js';
import type { TokenView } from './tokens.js';

/** Reads of the shared read models (projects, tokens). */
export const projectQueries = (models: ModelStore) => ({
  project: (projectId: string) => models.get<ProjectView>(`projects/project/${projectId}`),
  projectOfRoot: (rootHash: string) => models.get<string>(`projects/root/${rootHash}`),
  membershipsOf: async (actorId: string) =>
    (await models.range<string>({ prefix: `projects/member/${actorId}/` })).map(([key, role]) => ({
      project_id: key.slice(`projects/member/${actorId}/`.length),
      role,
    })),
});

export const tokenQueries = (models: ModelStore) => ({
  /** The principal a bearer token names, if it is known and not revoked. */
  async resolve(token: string): Promise<PrincipalRef | undefined> {
    const hash = sha256Hex(token);
    const id = await models.get<string>(`tokens/hash/${hash}`);
    const view = id === undefined ? undefined : await models.get<TokenView>(`tokens/id/${id}`);
    if (!view || view.revoked_at) return undefined;
    // the lookup was by hash; compare the stored hash in constant time all the same
    const same = timingSafeEqual(Buffer.from(view.token_hash, 'hex'), Buffer.from(hash, 'hex'));
    return same ? view.principal : undefined;
  },
  list: async () => (await models.range<TokenView>({ prefix: 'tokens/id/' })).map(([, v]) => v),
});
