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
