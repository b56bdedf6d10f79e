import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runMultiStreamCommand } from '../../src/commands/handler.js';
import { streamName, SYSTEM_META, type EventLog } from '../../src/events/index.js';

const RARE = 'BCDFGHJKLMNPQRSTVWXZ';

/**
 * A statement no file holds by chance, and that compression cannot break up: LevelDB compresses
 * its tables (snappy replaces a run of 4+ bytes seen earlier in the block by a back-reference),
 * so a statement with common words or hex (event ids are hex) could be stored in pieces and
 * escape the search. Random upper-case consonants match nothing else stored.
 */
export const distinctStatement = (): string =>
  [...randomBytes(40)].map((b) => RARE[b % RARE.length]).join('');

type Said = { type: 'thing.said'; data: { text: string }; metadata: { seal: string } };

/**
 * Writes `statement` sealed everywhere the store keeps it: in an event, in the idempotency
 * record of the command that wrote it (its response repeats it) and in a sealed read-model
 * value; then shreds its subject and checks every read of it is gone.
 */
export const writeAndShred = async (log: EventLog, statement: string): Promise<void> => {
  const subject = `subject-${randomBytes(4).toString('hex')}`;
  const name = streamName({ aggregateType: 'note', projectId: 'p', aggregateId: 'n1' });
  const say = () =>
    runMultiStreamCommand<null, Said, { said: string }>(log, {
      streams: [{ name, evolve: () => null, initialState: () => null }],
      decide: () => [
        [{ type: 'thing.said', data: { text: statement }, metadata: { seal: subject } }],
      ],
      meta: SYSTEM_META,
      idempotency: {
        key: 'k1',
        projectId: 'p',
        callerId: 'alice',
        operation: 'say',
        args: { text: statement },
      },
      respond: () => ({ said: statement }),
    });
  assert.deepEqual((await say()).result, { said: statement });
  await log.models.write([{ type: 'put', key: 'note/n1', value: { statement }, seal: subject }]);
  assert.deepEqual(await log.models.get('note/n1'), { statement });
  await log.shred(subject);
  const [event] = (await log.readStream(name)).events;
  assert.deepEqual(event!.data, {});
  assert.equal(await log.models.get('note/n1'), undefined);
  await assert.rejects(say(), { code: 'not_found' });
};

/** Every file under `dir` that holds `needle`'s bytes (UTF-8), by path. */
export const filesHolding = async (dir: string, needle: string): Promise<string[]> => {
  const bytes = Buffer.from(needle);
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const content = await readFile(path).catch(() => undefined); // a file gone meanwhile
    if (content?.includes(bytes)) found.push(path);
  }
  return found;
};
