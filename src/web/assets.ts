import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { own } from '../events/own.js';

/** The client files shipped in the package's `web/` folder (no build step, no CDN). */
const FILES: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

// src/web/assets.ts and dist/web/assets.js are both two levels below the package root
const root = fileURLToPath(new URL('../../web/', import.meta.url));
const cache = new Map<string, Buffer>();

/** GET /assets/<file>: one of the known files, cached in memory after the first read. */
export const asset = async (name: string): Promise<Response | undefined> => {
  const type = own(FILES, name);
  if (!type) return undefined;
  let body = cache.get(name);
  if (!body) cache.set(name, (body = await readFile(root + name)));
  return new Response(new Uint8Array(body), {
    headers: { 'content-type': type, 'cache-control': 'no-cache' },
  });
};
