import { canonicalClientRoots } from '../app/project-roots.js';
import type { ToolContext } from './tool.js';

/** A client that does not answer roots/list in time (no roots capability) gets 2 s. */
const ROOTS_WAIT_MS = 2_000;

/**
 * The roots the call's session declared (MCP `roots/list`), as canonical local directories;
 * asked once per call, and only when needed. Stateless HTTP has no session to ask: none.
 */
export const sessionRoots = (ctx: ToolContext): (() => Promise<readonly string[]>) => {
  let asked: Promise<readonly string[]> | undefined;
  const ask = async () => {
    if (ctx.call.sessionId === undefined) return [];
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<[]>((resolve) => {
      timer = setTimeout(() => resolve([]), ROOTS_WAIT_MS);
    });
    try {
      const roots = await Promise.race([ctx.call.listRoots().catch(() => []), late]);
      return canonicalClientRoots(roots.map((r) => r.uri));
    } finally {
      clearTimeout(timer);
    }
  };
  return () => (asked ??= ask());
};
