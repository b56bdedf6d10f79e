import { canonicalJson, sha256Hex } from '../events/index.js';

/**
 * An idempotency key is scoped to the project and the caller, so two agents that happen to pick
 * the same key never answer each other's requests.
 */
export type IdempotencyKey = { key: string; projectId: string; callerId: string };

export const idempotencyScope = ({ key, projectId, callerId }: IdempotencyKey): string =>
  canonicalJson([projectId, callerId, key]);

/** Operation plus canonical arguments (the key itself excluded): what "same input" means. */
export const fingerprint = (operation: string, args: Record<string, unknown>): string => {
  const { idempotency_key: _key, request_id: _request, ...rest } = args;
  return sha256Hex(canonicalJson({ operation, args: rest }));
};
