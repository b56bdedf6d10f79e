import {
  SignInCodeIssued,
  SignInCodeRedeemed,
  SignInSignedOut,
} from '../../events/project/sign-in.js';
import type { PrincipalRef } from '../../events/project/index.js';
import type { ModelStore } from '../../events/index.js';
import { defineProjector, modelKey } from '../projector.js';

/** A sign-in code and the session it became; looked up by the hash of either secret. */
export type SignInView = {
  code_id: string;
  principal: PrincipalRef;
  code_expires_at: string;
  session_hash: string | null;
  session_expires_at: string | null;
  signed_out: boolean;
};

const Keys = {
  code: (codeId: string) => modelKey('code', codeId),
  byCodeHash: (hash: string) => modelKey('code-hash', hash),
  bySessionHash: (hash: string) => modelKey('session-hash', hash),
};

export const WEB_SIGN_IN_MODEL = 'web.sign-in';

export const webSignInProjector = defineProjector({
  name: WEB_SIGN_IN_MODEL,
  version: 1,
  events: [SignInCodeIssued, SignInCodeRedeemed, SignInSignedOut],
  async apply(event, tx) {
    const key = Keys.code(event.data.code_id);
    switch (event.type) {
      case 'sign_in.code_issued': {
        const { code_id, principal, expires_at, code_hash } = event.data;
        const view: SignInView = {
          code_id,
          principal,
          code_expires_at: expires_at,
          session_hash: null,
          session_expires_at: null,
          signed_out: false,
        };
        tx.put(key, view);
        return tx.put(Keys.byCodeHash(code_hash), code_id);
      }
      case 'sign_in.code_redeemed': {
        const view = await tx.get<SignInView>(key);
        if (!view) return;
        const { session_hash, session_expires_at } = event.data;
        tx.put(key, { ...view, session_hash, session_expires_at });
        return tx.put(Keys.bySessionHash(session_hash), view.code_id);
      }
      case 'sign_in.signed_out': {
        const view = await tx.get<SignInView>(key);
        if (view) tx.put(key, { ...view, signed_out: true });
      }
    }
  },
});

/** Reads of the sign-in model: a code id by its hash, a sign-in by its session's hash. */
export const webSignInQueries = (models: ModelStore) => {
  const under = (key: string) => `${WEB_SIGN_IN_MODEL}/${key}`;
  const view = (codeId: string | undefined) =>
    codeId === undefined ? undefined : models.get<SignInView>(under(Keys.code(codeId)));
  return {
    codeIdOf: (codeHash: string) => models.get<string>(under(Keys.byCodeHash(codeHash))),
    bySession: async (sessionHash: string) =>
      view(await models.get<string>(under(Keys.bySessionHash(sessionHash)))),
  };
};
