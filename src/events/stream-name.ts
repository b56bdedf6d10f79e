/**
 * Stream names encode `<aggregate_type>:<project_id>:<aggregate_id>`. Ids may contain `:` and
 * `/`, so the two ids are percent-encoded: the name is unambiguous for every legal id and the
 * store can recover the envelope's aggregate fields from it.
 */
export type StreamId = { aggregateType: string; projectId: string; aggregateId: string };

export const streamName = ({ aggregateType, projectId, aggregateId }: StreamId): string =>
  `${aggregateType}:${encodeURIComponent(projectId)}:${encodeURIComponent(aggregateId)}`;

const parse = (name: string): StreamId | undefined => {
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

// Every append parses its stream's name, mostly one of a few hot streams: parse each once.
const parsed = new Map<string, Readonly<StreamId> | undefined>();
const PARSED_LIMIT = 10_000;

export const parseStreamName = (name: string): Readonly<StreamId> | undefined => {
  if (parsed.has(name)) return parsed.get(name);
  if (parsed.size >= PARSED_LIMIT) parsed.clear();
  const id = parse(name);
  parsed.set(name, id && Object.freeze(id));
  return id;
};

/** The project a stream belongs to; '' for a name not in the `<type>:<project>:<id>` form. */
export const projectOf = (name: string): string => parseStreamName(name)?.projectId ?? '';
