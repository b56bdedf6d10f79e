import { OAuthGrantRevoked } from '../../events/project/oauth.js';
import {
  TokenIssued,
  TokenRevoked,
  type PrincipalRef as Principal,
} from '../../events/project/index.js';
import { defineProjector, modelKey, type ModelTx } from '../projector.js';

/** Access tokens by hash (for authentication) and by id (for listing and revocation). */
export type TokenView = {
  token_id: string;
  token_hash: string;
  principal: Principal;
  label: string | null;
  issued_at: string;
  revoked_at: string | null;
  /** null: never (static tokens) */
  expires_at: string | null;
  /** the OAuth grant it was issued under (src/app/project/oauth.ts), null for static tokens */
  grant_id: string | null;
};

export const TokenKeys = {
  id: (tokenId: string) => modelKey('id', tokenId),
  idPrefix: 'id/',
  hash: (tokenHash: string) => modelKey('hash', tokenHash),
  /** the ids of the tokens one OAuth grant issued (revoked with it) */
  grant: (grantId: string) => modelKey('grant', grantId),
};

const revoke = async (tx: ModelTx, tokenId: string, at: string) => {
  const key = TokenKeys.id(tokenId);
  const view = await tx.get<TokenView>(key);
  if (view && !view.revoked_at) tx.put(key, { ...view, revoked_at: at });
};

export const tokensProjector = defineProjector({
  name: 'tokens',
  // 2: ids encoded in keys; 3: expiry, OAuth grants (a revoked grant revokes its tokens)
  version: 3,
  events: [TokenIssued, TokenRevoked, OAuthGrantRevoked],
  async apply(event, tx) {
    switch (event.type) {
      case 'token.issued': {
        const { token_id, token_hash, grant_id } = event.data;
        const view: TokenView = { ...event.data, issued_at: event.created_at, revoked_at: null };
        tx.put(TokenKeys.id(token_id), view);
        if (grant_id) {
          const issued = (await tx.get<string[]>(TokenKeys.grant(grant_id))) ?? [];
          tx.put(TokenKeys.grant(grant_id), [...issued, token_id]);
        }
        return tx.put(TokenKeys.hash(token_hash), token_id);
      }
      case 'token.revoked':
        return revoke(tx, event.data.token_id, event.created_at);
      case 'oauth.grant_revoked': {
        const issued = (await tx.get<string[]>(TokenKeys.grant(event.data.grant_id))) ?? [];
        for (const tokenId of issued) await revoke(tx, tokenId, event.created_at);
      }
    }
  },
});
