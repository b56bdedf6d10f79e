import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { App } from '../../app/app.js';
import { perApp } from '../../app/per-app.js';
import { runCommand } from '../../commands/handler.js';
import { SYSTEM_PROJECT } from '../../commands/ids.js';
import { SYSTEM, type Principal } from '../../commands/principal.js';
import { signInDecider, type SignInCommand } from '../../commands/project/sign-in.js';
import { newId, sha256Hex, streamName, SYSTEM_META } from '../../events/index.js';
import { WEB_SIGN_IN_MODEL, webSignInQueries } from '../../projections/project/sign-in.js';

/** A printed code is good for ten minutes; a browser session for twelve hours. */
export const CODE_TTL_MS = 10 * 60_000;
export const SESSION_TTL_MS = 12 * 60 * 60_000;

const secret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;
const streamOf = (codeId: string) =>
  streamName({ aggregateType: 'sign_in', projectId: SYSTEM_PROJECT, aggregateId: codeId });
const later = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();
const sameHash = (a: string, b: string) =>
  timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

export type Session = { principal: Principal; expiresAt: string; codeId: string };

/**
 * Sign-in without passwords, through the log: any process on the data dir (`intentlog open`)
 * issues a code, the serving process redeems it. Codes and session secrets are random 256-bit
 * strings shown once; the log and the read model hold only their SHA-256.
 */
const signInService = (app: App) => {
  const queries = webSignInQueries(app.log.models);
  const run = (codeId: string, command: SignInCommand) =>
    runCommand(app.log, {
      decider: signInDecider,
      stream: streamOf(codeId),
      command,
      meta: SYSTEM_META,
      respond: (state) => state,
    });
  /** A lookup that misses may be a code issued a moment ago by another process. */
  const fresh = async <T>(read: () => Promise<T | undefined>): Promise<T | undefined> => {
    const found = await read();
    if (found !== undefined) return found;
    await app.waitFor(await app.log.head(), [WEB_SIGN_IN_MODEL]);
    return read();
  };
  return {
    async issueCode(principal: Principal = SYSTEM) {
      const code = secret('ilc_');
      const code_id = newId('signin');
      const expires_at = later(app.clock(), CODE_TTL_MS);
      const data = { code_id, code_hash: sha256Hex(code), principal, expires_at, by: SYSTEM };
      await run(code_id, { type: 'IssueCode', data });
      return { code, expiresAt: expires_at };
    },
    /** The code's session secret (for the cookie); a used, expired or unknown code is refused. */
    async redeem(code: string) {
      const codeId =
        code.length > 200 ? undefined : await fresh(() => queries.codeIdOf(sha256Hex(code)));
      if (codeId === undefined) return undefined;
      const session = secret('ils_');
      const now = app.clock();
      const data = {
        code_id: codeId,
        session_hash: sha256Hex(session),
        session_expires_at: later(now, SESSION_TTL_MS),
        now: now.toISOString(),
      };
      await run(codeId, { type: 'RedeemCode', data });
      return session;
    },
    /**
     * The session a cookie's secret names, while it is live. The read model finds the sign-in
     * (a session's hash never moves to another), but whether it is still live is read from the
     * sign-in's own stream (three events at most): a sign-out the read models have not folded
     * yet, because other writes keep them busy, must refuse the very next request (issue 40).
     */
    async session(sessionSecret: string): Promise<Session | undefined> {
      if (sessionSecret.length > 200) return undefined;
      const hash = sha256Hex(sessionSecret);
      const view = await fresh(() => queries.bySession(hash));
      if (!view?.session_hash || !sameHash(view.session_hash, hash)) return undefined;
      const { state } = await app.log.aggregateStream(streamOf(view.code_id), signInDecider);
      if (state.status !== 'redeemed') return undefined;
      if (state.expires_at! <= app.clock().toISOString()) return undefined;
      return { principal: view.principal, expiresAt: state.expires_at!, codeId: view.code_id };
    },
    signOut: (codeId: string) => run(codeId, { type: 'SignOut', data: { code_id: codeId } }),
  };
};

export const signIn = perApp(signInService);
