import type { Catalog } from '../events/catalog/catalog.js';
import {
  GENESIS_HASH,
  StoredRecord,
  verifyChain,
  type EventLog,
  type StoredRecord as Record,
} from '../events/index.js';

/** The first thing wrong with the log: the event it is in, and why. */
export type AuditFinding = {
  check: 'read' | 'envelope' | 'chain' | 'schema' | 'read-model' | 'context';
  /** for context findings: the check that found it (e.g. `missions artifacts`) */
  context?: string;
  /** for context findings: the file it is about */
  file?: string;
  reason: string;
  event_id?: string;
  project_id?: string;
  cursor?: number;
  global_position?: number;
  /** for read-model findings: the model key that differs */
  key?: string;
};

type ChainHead = { cursor: number; hash: string };

const PAGE = 1000;

const at = (r: Record, check: AuditFinding['check'], reason: string): AuditFinding => ({
  check,
  reason,
  event_id: r.event_id,
  project_id: r.project_id,
  cursor: r.cursor,
  global_position: r.global_position,
});

/**
 * Sealed content can only be checked opened, as readers see it (upcast to the latest version);
 * content whose key was shredded is gone by design and has nothing left to check.
 */
const checkSealed = async (log: EventLog, r: Record, catalog: Catalog): Promise<void> => {
  const [event] = await log.readAll({ after: r.global_position - 1, limit: 1 });
  if (!event || event.event_id !== r.event_id) throw new Error('sealed event not readable');
  if (!event.shredded) catalog.validate(r.type, event.data);
};

const checkSchema = async (log: EventLog, r: Record, catalog: Catalog) => {
  try {
    if (r.sealed) await checkSealed(log, r, catalog);
    else catalog.validateVersion(r.type, r.schema_version, r.data ?? {});
    return undefined;
  } catch (error) {
    return at(r, 'schema', (error as Error).message);
  }
};

/** Checks one record in global order: envelope, position, chain link, data schema. */
const checkRecord = async (
  log: EventLog,
  catalog: Catalog,
  r: Record,
  expectedPosition: number,
  heads: Map<string, ChainHead>,
): Promise<AuditFinding | undefined> => {
  const envelope = StoredRecord.safeParse(r);
  if (!envelope.success) return at(r, 'envelope', envelope.error.message);
  if (r.global_position !== expectedPosition)
    return at(r, 'envelope', `global position ${r.global_position}, expected ${expectedPosition}`);
  const head = heads.get(r.project_id) ?? { cursor: 0, hash: GENESIS_HASH };
  const broken = verifyChain([r], head.hash, head.cursor);
  if (broken) return at(r, 'chain', broken.reason);
  heads.set(r.project_id, { cursor: r.cursor, hash: r.hash });
  return checkSchema(log, r, catalog);
};

/**
 * A page that does not decode holds a record too damaged to name by its id: read it one
 * record at a time to find which position it is.
 */
const undecodable = async (log: EventLog, after: number, error: unknown) => {
  for (let position = after; ; position++) {
    try {
      const [r] = await log.readRaw({ after: position, limit: 1 });
      if (!r) break;
    } catch {
      return {
        check: 'read' as const,
        reason: 'record does not decode',
        global_position: position + 1,
      };
    }
  }
  return { check: 'read' as const, reason: `log not readable: ${(error as Error).message}` };
};

export type RecordScan = { events: number; projects: number; finding?: AuditFinding };

/**
 * Scans the log in global order; stops at the first bad event. With `projects`, only those
 * projects' records are checked and counted: the others are passed over unread, so nothing
 * about them (not even that one is damaged) reaches an audit scoped to a member's projects.
 */
export const auditRecords = async (
  log: EventLog,
  catalog: Catalog,
  onProgress?: (done: number) => void,
  projects?: ReadonlySet<string>,
): Promise<RecordScan> => {
  const heads = new Map<string, ChainHead>();
  const inScope = (r: Record) => !projects || projects.has(r.project_id);
  let position = 0;
  let events = 0;
  for (;;) {
    let page: Record[];
    try {
      page = await log.readRaw({ after: position, limit: PAGE });
    } catch (error) {
      const finding = await undecodable(log, position, error);
      return { events, projects: heads.size, finding };
    }
    for (const r of page) {
      if (inScope(r)) {
        const finding = await checkRecord(log, catalog, r, position + 1, heads);
        if (finding) return { events, projects: heads.size, finding };
        events++;
      }
      position = r.global_position;
    }
    onProgress?.(position);
    if (page.length < PAGE) return { events, projects: heads.size };
  }
};
