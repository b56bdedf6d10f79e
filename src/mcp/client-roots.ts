import { canonicalClientRoots } from '../app/project/roots.js';
import type { CallInfo, ToolContext } from './tool.js';

/** How long a client gets to answer `roots/list` before it counts as offering none. */
export const ROOTS_WAIT_MS = 2_000;

/**
 * The client's roots (`roots/list`), or none. A client that cannot answer — stateless HTTP,
 * where a server request has no way back, or a client without the roots capability that never
 * replies — would otherwise hold the call for the SDK's 60 s request timeout; it gets 2 s.
 */
export const clientRoots = async (
  call: Pick<CallInfo, 'listRoots'>,
  waitMs = ROOTS_WAIT_MS,
): Promise<{ uri: string; name?: string }[]> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<[]>((resolve) => {
    timer = setTimeout(() => resolve([]), waitMs);
  });
  try {
    return await Promise.race([call.listRoots().catch(() => []), late]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * The roots the call's session declared, as canonical local directories; asked once per call,
 * and only when needed. Stateless HTTP has no session to ask: none.
 */
export const sessionRoots = (ctx: ToolContext): (() => Promise<readonly string[]>) => {
  let asked: Promise<readonly string[]> | undefined;
  const ask = async () =>
    ctx.call.sessionId === undefined
      ? []
      : canonicalClientRoots((await clientRoots(ctx.call)).map((r) => r.uri));
  return () => (asked ??= ask());
};
