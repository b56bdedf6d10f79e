/**
 * The envelope fields a failed call had already learnt when it failed: a surface that finds its
 * project in the call (intent resolves it from the root) tells the adapter, so the error
 * envelope names the project and task as the success envelope would, not `project_id: null`.
 */
const known = new WeakMap<object, Record<string, unknown>>();

/** Marks `error` with the envelope fields the call knew; returns it, for `throw withEnvelope(…)`. */
export const withEnvelope = (error: unknown, fields: Record<string, unknown>): unknown => {
  if (error !== null && typeof error === 'object')
    known.set(error, { ...known.get(error), ...fields });
  return error;
};

/** The fields `withEnvelope` put on an error, if any. */
export const envelopeOfError = (error: unknown): Record<string, unknown> | undefined =>
  error !== null && typeof error === 'object' ? known.get(error) : undefined;
