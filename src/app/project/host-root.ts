import { fileURLToPath } from 'node:url';

/**
 * What a host says of the directory a call works in, read the same way by every context: the
 * sandbox metadata a host may put in a request's `_meta` (contracts/intent.md), and the local
 * paths of `file://` URIs (the client's `roots/list`, the sandbox's `sandboxCwd`).
 */
export const SANDBOX_META = 'codex/sandbox-state-meta';

/** A local `file://` URI's path, or undefined (another scheme, a remote host, unparsable). */
export const localFilePath = (uri: unknown): string | undefined => {
  if (typeof uri !== 'string') return undefined;
  try {
    const url = new URL(uri);
    if (url.protocol !== 'file:' || (url.host !== '' && url.host !== 'localhost')) return undefined;
    return fileURLToPath(url);
  } catch {
    return undefined;
  }
};

/**
 * The host's sandbox in a request's `_meta`: undefined when it names none; else `{ cwd }`, with
 * `cwd` undefined when the entry is there but holds no local `file://` `sandboxCwd` (intent
 * refuses that, the story map looks elsewhere).
 */
export const hostSandbox = (
  meta: Readonly<Record<string, unknown>> | undefined,
): { cwd: string | undefined } | undefined => {
  if (!meta || !(SANDBOX_META in meta)) return undefined;
  const state = meta[SANDBOX_META];
  const cwd =
    state !== null && typeof state === 'object' && !Array.isArray(state)
      ? localFilePath((state as { sandboxCwd?: unknown }).sandboxCwd)
      : undefined;
  return { cwd };
};
