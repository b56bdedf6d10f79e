// `node --import` this file: at exit, writes every module the process loaded (ES modules as seen
// by a load hook, CommonJS from the require cache) to the file named by $LOADED_MODULES_FILE.
import { createRequire, register } from 'node:module';
import { appendFileSync, writeFileSync } from 'node:fs';

const file = process.env.LOADED_MODULES_FILE;
const hooks = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (!url.startsWith('node:')) appendFileSync(${JSON.stringify(file)}, url + '\\n');
  return next(url, context);
}`;
writeFileSync(file, '');
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
const require = createRequire(import.meta.url);
process.on('exit', () => appendFileSync(file, Object.keys(require.cache).join('\n') + '\n'));
