import {
  TokenIssued,
  TokenRevoked,
  type PrincipalRef as Principal,
} from '../events/catalog/project.js';
import { defineProjector, modelKey } from './projector.js';

/** Access tokens by hash (for authentication) and by id (for listing and revocation). */
export type TokenView = {
  token_id: string;
  token_hash: string;
  principal: Principal;
  label: string | null;
  issued_at: string;
  revoked_at: string | null;
};

export const TokenKeys = {
  id: (tokenId: string) => modelKey('id', tokenId),
  idPrefix: 'id/',
  hash: (tokenHash: string) => modelKey('hash', tokenHash),
};

export const tokensProjector = defineProjector({
  name: 'tokens',
  // 2: ids encoded in keys
  version: 2,
  events: [TokenIssued, TokenRevoked],
  async apply(event, tx) {
    switch (event.type) {
      case 'token.issued': {
        const view: TokenView = { ...event.data, issued_at: event.created_at, revoked_at: null };
        tx.put(TokenKeys.id(event.data.token_id), view);
        return tx.put(TokenKeys.hash(event.data.token_hash), event.data.token_id);
      }
      case 'token.revoked': {
        const key = TokenKeys.id(event.data.token_id);
        const view = await tx.get<TokenView>(key);
        if (view) tx.put(key, { ...view, revoked_at: event.created_at });
      }
    }
  },
});
