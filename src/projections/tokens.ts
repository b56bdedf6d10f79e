import type { PrincipalRef as Principal } from '../events/catalog/project.js';
import type { Projector } from './projector.js';

/** Access tokens by hash (for authentication) and by id (for listing and revocation). */
export type TokenView = {
  token_id: string;
  token_hash: string;
  principal: Principal;
  label: string | null;
  issued_at: string;
  revoked_at: string | null;
};

export const tokensProjector: Projector = {
  name: 'tokens',
  version: 1,
  handles: ['token.issued', 'token.revoked'],
  async apply(event, tx) {
    if (event.type === 'token.issued') {
      const data = event.data as Omit<TokenView, 'issued_at' | 'revoked_at'>;
      const view: TokenView = { ...data, issued_at: event.created_at, revoked_at: null };
      tx.put(`id/${data.token_id}`, view);
      tx.put(`hash/${data.token_hash}`, data.token_id);
      return;
    }
    const { token_id } = event.data as { token_id: string };
    const view = await tx.get<TokenView>(`id/${token_id}`);
    if (view) tx.put(`id/${token_id}`, { ...view, revoked_at: event.created_at });
  },
};
