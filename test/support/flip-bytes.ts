import { strict as assert } from 'node:assert';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Flips `count` bytes of the newest file with this extension in the data dir's LevelDB. */
export const flipBytes = async (dir: string, ext: string, count = 32): Promise<string> => {
  const names = (await readdir(join(dir, 'log'))).filter((n) => n.endsWith(ext)).sort();
  const name = names.at(-1);
  assert.ok(name, `no ${ext} file in ${dir}/log: ${names.join(', ')}`);
  const path = join(dir, 'log', name);
  const bytes = await readFile(path);
  assert.ok(bytes.length > count * 4, `${name} holds only ${bytes.length} bytes`);
  const at = Math.floor(bytes.length / 2);
  for (let i = at; i < at + count; i++) bytes[i] = bytes[i]! ^ 0xff;
  await writeFile(path, bytes);
  return path;
};
