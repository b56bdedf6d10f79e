import { z } from 'zod';
import { defineEvent } from '../catalog/define.js';
import { PrincipalRef } from './index.js';

/**
 * The web view's sign-in (docs/web.md): a one-time code printed by `intentlog open` becomes a
 * browser session. Only SHA-256 hashes of the code and of the session secret are stored, so the
 * log never holds anything a reader could sign in with. One stream per code: issued, redeemed
 * once (the expected version makes the second redemption lose), signed out.
 */
export const SignInCodeIssued = defineEvent(
  'sign_in.code_issued',
  z.object({
    code_id: z.string(),
    code_hash: z.string(),
    principal: PrincipalRef,
    /** the code is refused after this time (UTC ISO-8601) */
    expires_at: z.string(),
  }),
);
export const SignInCodeRedeemed = defineEvent(
  'sign_in.code_redeemed',
  z.object({
    code_id: z.string(),
    session_hash: z.string(),
    /** the session cookie is refused after this time */
    session_expires_at: z.string(),
  }),
);
export const SignInSignedOut = defineEvent('sign_in.signed_out', z.object({ code_id: z.string() }));

export const webEvents = [SignInCodeIssued, SignInCodeRedeemed, SignInSignedOut];
