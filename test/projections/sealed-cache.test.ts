import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { Event } from '@event-driven-io/emmett';
import {
  levelEventLog,
  openCatalog,
  openMemoryLevel,
  streamName,
  type EventLog,
} from '../../src/events/index.js';
import { startProjections, type Projector } from '../../src/projections/index.js';

/**
 * A read model that keeps a note sealed under its subject, reads it on a `peeked` (so the
 * engine may keep it opened) and copies what it reads into a plain value on a `copied`: after
 * a shred, the copy must find the note gone, never the opened value the engine held.
 */
const notes: Projector = {
  name: 'notes',
  version: 1,
  handles: ['noted', 'peeked', 'copied'],
  async apply(event, tx) {
    const id = event.data.id as string;
    if (event.type === 'noted')
      tx.put(`note/${id}`, { text: event.data.text }, { seal: event.data.subject as string });
    else {
      const note = await tx.get<{ text: string }>(`note/${id}`);
      if (event.type === 'copied') tx.put(`copy/${id}`, note ?? null);
      else tx.put(`peeked/${id}`, note !== undefined);
    }
  },
};

const stream = streamName({ aggregateType: 'n', projectId: 'p', aggregateId: 'x' });
const append = async (log: EventLog, ...events: Event[]) =>
  (await log.appendToStream(stream, events)).lastEventGlobalPosition;

describe('sealed read-model values in the engine', () => {
  it('a shred reaches a fold that read the value before it: the note reads as gone', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    const engine = await startProjections(log, [notes]);
    const noted = {
      type: 'noted',
      data: { id: '1', text: 'SECRET', subject: 's1' },
      metadata: { seal: 's1' },
    } as Event;
    await engine.waitFor(Number(await append(log, noted)));
    await engine.waitFor(Number(await append(log, { type: 'peeked', data: { id: '1' } })));
    assert.equal(await log.models.get('notes/peeked/1'), true, 'read it opened');
    await log.shred('s1');
    await engine.waitFor(Number(await append(log, { type: 'copied', data: { id: '1' } })));
    assert.equal(await log.models.get('notes/copy/1'), null, 'no copy of shredded content');
    await engine.stop();
    await log.close();
  });

  it('a replay reads a sealed value it wrote on an earlier page from memory, not the store', async () => {
    const log = await levelEventLog(await openMemoryLevel(), openCatalog);
    const noted = (id: string) =>
      ({
        type: 'noted',
        data: { id, text: `text ${id}`, subject: `s${id}` },
        metadata: { seal: `s${id}` },
      }) as Event;
    // the notes on the log's first page, their reads on its next (PAGE: 1,000 events)
    const filler = Array.from({ length: 1000 }, () => ({ type: 'filler', data: {} }));
    const readsOf = ['1', '2', '3'].flatMap((id) => [
      { type: 'peeked', data: { id } },
      { type: 'copied', data: { id } },
    ]);
    await append(log, ...['1', '2', '3'].map(noted), ...filler, ...readsOf);
    let reads = 0;
    const get = log.models.get.bind(log.models);
    log.models.get = <T>(key: string) => {
      if (key.startsWith('notes/note/')) reads++;
      return get<T>(key);
    };
    const engine = await startProjections(log, [notes]);
    assert.equal(reads, 0, 'folded from what the engine wrote');
    assert.deepEqual(await log.models.get('notes/copy/2'), { text: 'text 2' });
    await engine.stop();
    await log.close();
  });
});
