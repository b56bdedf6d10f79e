import { readFile, writeFile } from 'node:fs/promises';
import type { Client } from '@modelcontextprotocol/client';
import type { App } from '../../src/app/app.js';
import { serveOverHttp } from '../../src/mcp/serve.js';
import { modules, surfacesOf } from '../../src/modules/index.js';
import { silent } from '../mcp/harness.js';
import { httpClient, issueToken } from '../mcp/http-harness.js';

/** What the docs-capture scripts share: a JSON snippet cut after `max` characters. */
export const shownJson =
  (max: number) =>
  (v: unknown): string => {
    const text = JSON.stringify(v, null, 2);
    return text.length > max
      ? `${text.slice(0, max)}\n… (${text.length - max} more characters)`
      : text;
  };

/**
 * One captured call as docs/storymap.md shows it: the tool's name as a heading, its arguments
 * and its structured answer, each cut after `max` characters.
 */
export const captured = (
  max: number,
  level: '###' | '####',
): ((name: string, args: unknown, answer: unknown) => string) => {
  const shown = shownJson(max);
  return (name, args, answer) =>
    `${level} ${name}\n\nRequest arguments:\n\n\`\`\`json\n${shown(args)}\n\`\`\`\n\nResponse (structuredContent):\n\n\`\`\`json\n${shown(answer)}\n\`\`\`\n`;
};

const DOC = new URL('../../docs/storymap.md', import.meta.url);

/**
 * A capture script's sections: with `--write`, in place of what the script wrote last time in
 * docs/storymap.md (between its begin and end markers), so the docs are refreshed by running
 * the script, never pasted by hand; without it, on stdout.
 */
export const publish = async (script: string, sections: readonly string[]): Promise<void> => {
  const text = sections.join('\n');
  if (!process.argv.includes('--write')) return void process.stdout.write(text);
  const begin = `<!-- begin: captured by ${script} -->\n`;
  const end = `<!-- end: captured by ${script} -->`;
  const doc = await readFile(DOC, 'utf8');
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`docs/storymap.md has no markers for ${script}`);
  await writeFile(DOC, `${doc.slice(0, from + begin.length)}\n${text}\n${doc.slice(to)}`);
};

export const fiona = { kind: 'actor' as const, actor_id: 'fiona' };

/** A running server (every surface, stateless HTTP) and a client of /mcp/storymap as fiona. */
export const withStorymapHttp = async (
  app: App,
  body: (client: Client) => Promise<void>,
): Promise<void> => {
  const listening = await serveOverHttp({
    app,
    selection: [],
    mounted: surfacesOf(modules),
    log: silent,
    host: '127.0.0.1',
    port: 0,
    stateful: false,
  });
  const { client } = await httpClient(`${listening.url}/storymap`, {
    token: await issueToken(app, fiona),
  });
  try {
    await body(client);
  } finally {
    await client.close();
    await listening.close();
  }
};
