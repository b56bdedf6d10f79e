/**
 * Stream names encode `<aggregate_type>:<project_id>:<aggregate_id>`. Ids may contain `:` and
 * `/`, so the two ids are percent-encoded: the name is unambiguous for every legal id and the
 * store can recover the envelope's aggregate fields from it.
 */
export type StreamId = { aggregateType: string; projectId: string; aggregateId: string };

export const streamName = ({ aggregateType, projectId, aggregateId }: StreamId): string =>
  `${aggregateType}:${encodeURIComponent(projectId)}:${encodeURIComponent(aggregateId)}`;

export const parseStreamName = (name: string): StreamId | undefined => {
  const parts = name.split(':');
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) return undefined;
  const [aggregateType, projectId, aggregateId] = parts as [string, string, string];
  try {
    return {
      aggregateType,
      projectId: decodeURIComponent(projectId),
      aggregateId: decodeURIComponent(aggregateId),
    };
  } catch {
    return undefined;
  }
};
