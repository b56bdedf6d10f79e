import {
  append,
  evolveDesk,
  initialDesk,
  type Challenge,
  type Desk,
  type DeskList,
} from '../../commands/missions/desk-state.js';
import type { DeskEvent } from '../../commands/missions/desk-events.js';
import type { PersistentMap } from '../../commands/persistent-map.js';
import { own, setOwn } from '../../events/own.js';
import { modelKey, modelKeyPrefix, type ModelTx } from '../projector.js';

/**
 * A project's desk stored per item, so an event rewrites only what it changes (issue 31: one
 * value per desk grew with its sessions and was rewritten on every event). Under
 * `desk/<project>/`: `head` (the desk's scalars), one key per mission, lease, lane, intake,
 * owner challenge and learning block (`<section>/<id>`), one per inbox item, parked item,
 * checkpoint and stop (`<section>/<log position>`, so key order is the order they came), and
 * `challenge-id/<id>` → the fingerprint its challenge is kept under. `readDesk` puts the desk
 * back together exactly as `evolveDesk` folds it, entries in the order they were first added.
 */
export type DeskHead = Pick<
  Desk,
  'project_id' | 'active_mission_id' | 'focus_id' | 'proposal' | 'next_step'
>;
const HEAD_FIELDS = [
  'project_id',
  'active_mission_id',
  'focus_id',
  'proposal',
  'next_step',
] as const satisfies readonly (keyof DeskHead)[];

const RECORDS = ['missions', 'leases', 'lanes', 'intakes', 'challenges', 'learning'] as const;
type RecordSection = (typeof RECORDS)[number];
const LISTS = ['inbox', 'parked', 'checkpoints', 'stops'] as const;
type ListSection = (typeof LISTS)[number];

/** A record entry with the log position of the event that first added it (its place in order). */
type Stored = { at: number; value: unknown };

/** A record section of the desk as the fold sees it: its entries by id (learning is a record). */
const entriesOf = (desk: Desk, section: RecordSection): [string, unknown][] =>
  section === 'learning'
    ? Object.entries(desk.learning)
    : [...(desk[section] as PersistentMap<string, unknown>).entries()];
const entryOf = (desk: Desk, section: RecordSection, id: string): unknown =>
  section === 'learning'
    ? own(desk.learning, id)
    : (desk[section] as PersistentMap<string, unknown>).get(id);

/** The desk with one stored entry put back (and the challenge-id index of a challenge). */
const withEntry = (desk: Desk, section: RecordSection, id: string, value: unknown): Desk => {
  if (section === 'learning') {
    const learning = { ...desk.learning };
    setOwn(learning, id, value as Desk['learning'][string]);
    return { ...desk, learning };
  }
  const next = {
    ...desk,
    [section]: (desk[section] as PersistentMap<string, unknown>).with(id, value),
  };
  if (section !== 'challenges') return next;
  const { challenge_id } = value as Challenge;
  return { ...next, challengeIds: desk.challengeIds.with(challenge_id, id) };
};

const CHALLENGE_ID = 'challenge-id';
/** Wide enough for any log position, so the keys of a list sort as their positions do. */
const positionPart = (position: number) => String(position).padStart(16, '0');

export const DeskKeys = {
  head: (projectId: string) => modelKey('desk', projectId, 'head'),
  item: (projectId: string, section: RecordSection | ListSection, id: string) =>
    modelKey('desk', projectId, section, id),
  challengeId: (projectId: string, challengeId: string) =>
    modelKey('desk', projectId, CHALLENGE_ID, challengeId),
  /** every key of one project's desk */
  all: (projectId: string) => modelKeyPrefix('desk', projectId),
};

/** The record entries an event reads or changes, which the fold loads before it evolves. */
const entriesRead = async (
  tx: ModelTx,
  projectId: string,
  event: DeskEvent,
): Promise<[RecordSection, string][]> => {
  switch (event.type) {
    case 'mission.recontracted':
    case 'mission.closed':
      return [['missions', event.data.mission_id]];
    case 'lease.revoked':
      return event.data.session_ids.map((id) => ['leases', id]);
    case 'owner_challenge.code_rejected':
    case 'owner_challenge.cancelled':
    case 'owner_challenge.consumed': {
      const fingerprint = await tx.get<string>(
        DeskKeys.challengeId(projectId, event.data.challenge_id),
      );
      return fingerprint === undefined ? [] : [['challenges', fingerprint]];
    }
    case 'intake.distilled':
      return [['intakes', event.data.intake_id]];
    case 'learning_block.completed':
    case 'learning_block.abandoned':
      return [['learning', event.data.block_id]];
    default:
      return [];
  }
};

/**
 * Folds one desk event into the per-item keys: loads the head and the entries the event names
 * into a partial desk, evolves it with the same `evolveDesk` the commands decide on, and writes
 * back only what changed (evolveDesk keeps every untouched value by reference).
 */
export const foldDeskItems = async (
  tx: ModelTx,
  event: DeskEvent,
  position: number,
): Promise<void> => {
  const projectId = event.data.project_id;
  const head = (await tx.get<DeskHead>(DeskKeys.head(projectId))) ?? initialDesk();
  let before: Desk = { ...initialDesk(), ...pickHead(head) };
  const at = new Map<string, number>();
  for (const [section, id] of await entriesRead(tx, projectId, event)) {
    const stored = await tx.get<Stored>(DeskKeys.item(projectId, section, id));
    if (stored === undefined) continue;
    before = withEntry(before, section, id, stored.value);
    at.set(`${section}/${id}`, stored.at);
  }
  const after = evolveDesk(before, event);
  if (HEAD_FIELDS.some((field) => after[field] !== before[field]))
    tx.put(DeskKeys.head(projectId), pickHead(after));
  for (const section of RECORDS) {
    for (const [id, value] of entriesOf(after, section)) {
      if (entryOf(before, section, id) === value) continue;
      const key = DeskKeys.item(projectId, section, id);
      // an entry written again (an intake captured twice) keeps the place it was first added at
      const first = at.get(`${section}/${id}`) ?? (await tx.get<Stored>(key))?.at ?? position;
      tx.put(key, { at: first, value } satisfies Stored);
    }
  }
  // the lists start empty in `before`: what `after` holds is what this event appended
  for (const section of LISTS)
    for (const value of (after[section] as DeskList<unknown>).values())
      tx.put(DeskKeys.item(projectId, section, positionPart(position)), value);
  if (event.type === 'owner_challenge.issued')
    tx.put(
      DeskKeys.challengeId(projectId, event.data.challenge_id),
      event.data.fingerprint satisfies string,
    );
};

const pickHead = (desk: DeskHead): DeskHead => ({
  project_id: desk.project_id,
  active_mission_id: desk.active_mission_id,
  focus_id: desk.focus_id,
  proposal: desk.proposal,
  next_step: desk.next_step,
});

const isRecord = (section: string): section is RecordSection =>
  (RECORDS as readonly string[]).includes(section);
const isList = (section: string): section is ListSection =>
  (LISTS as readonly string[]).includes(section);

/**
 * The desk put back together from its items (`entries`: every key under `DeskKeys.all`, in key
 * order, with the prefix `prefix` that was read), equal to the desk `evolveDesk` folds.
 */
export const assembleDesk = (prefix: string, entries: readonly [string, unknown][]): Desk => {
  let desk = initialDesk();
  const records = new Map<RecordSection, [string, Stored][]>();
  for (const [key, value] of entries) {
    const [section, part] = key.slice(prefix.length).split('/');
    if (section === 'head') desk = { ...desk, ...pickHead(value as DeskHead) };
    else if (section !== undefined && part !== undefined && isRecord(section)) {
      const list = records.get(section) ?? [];
      list.push([decodeURIComponent(part), value as Stored]);
      records.set(section, list);
    } else if (section !== undefined && isList(section))
      desk = { ...desk, [section]: append(desk[section] as DeskList<unknown>, value) };
  }
  for (const [section, list] of records) {
    list.sort(([, a], [, b]) => a.at - b.at);
    for (const [id, stored] of list) desk = withEntry(desk, section, id, stored.value);
  }
  // the index the fold keeps beside the leases: those not revoked, in the order granted
  for (const [id, lease] of desk.leases)
    if (lease.revoked === null)
      desk = { ...desk, unrevoked: desk.unrevoked.with(id, lease.mission_id) };
  return desk;
};
