import { z } from 'zod';
import { Principal } from '../../commands/principal.js';
import { Annotations, definePrompt, defineTool, type Surface, type ToolContext } from '../tool.js';

/**
 * The `system` surface: what the server itself knows, for every client. Small on purpose; the
 * contract surfaces carry the product. Every tool here reads only.
 */

const whoami = defineTool({
  name: 'whoami',
  title: 'Who am I',
  description:
    'Returns the principal this connection acts as (the SYSTEM principal, or an actor) and the ' +
    'projects that actor is a member of, with its role on each surface there. Call it to learn ' +
    'what you may do.',
  input: z.strictObject({}),
  output: z.object({
    principal: Principal,
    memberships: z.array(
      z.object({
        project_id: z.string(),
        roles: z.record(z.string(), z.string()).describe('surface → role'),
      }),
    ),
  }),
  // 2: a role per surface (`roles`) instead of governance's one `role`
  schemaVersion: 2,
  annotations: Annotations.query,
  tier: 'all',
  async run(_args, { app, principal }) {
    await app.waitFor(await app.log.head(), ['projects']);
    const memberships =
      principal.kind === 'actor' ? await app.projects.membershipsOf(principal.actor_id) : [];
    const who = principal.kind === 'actor' ? `actor ${principal.actor_id}` : 'the SYSTEM principal';
    return { result: { principal, memberships }, summary: `you are ${who}` };
  },
});

const ServerInfo = z.object({
  name: z.string(),
  version: z.string(),
  transport: z.enum(['stdio', 'http']),
  surfaces: z.array(z.object({ name: z.string(), tier: z.string(), tools: z.array(z.string()) })),
  log_head: z.number().int().describe('global position of the last event in the log (0: empty)'),
});
type ServerInfo = z.infer<typeof ServerInfo>;

const serverInfo = async ({ app, served }: ToolContext): Promise<ServerInfo> => ({
  name: served.name,
  version: served.version,
  transport: served.transport,
  surfaces: served.surfaces.map((s) => ({ name: s.name, tier: s.tier, tools: [...s.tools] })),
  log_head: await app.log.head(),
});

const serverInfoTool = defineTool({
  name: 'server_info',
  title: 'Server info',
  description:
    'Returns this intentlog server’s version, transport, the surfaces and tools it serves, and ' +
    'the position of the last event in its log (which grows with every change anyone makes).',
  input: z.strictObject({}),
  output: ServerInfo,
  annotations: Annotations.query,
  tier: 'all',
  async run(_args, ctx) {
    const info = await serverInfo(ctx);
    return { result: info, summary: `intentlog ${info.version}, log head ${info.log_head}` };
  },
});

const orient = definePrompt({
  name: 'intentlog_orient',
  title: 'Orient yourself in intentlog',
  description:
    'Asks the assistant to find out who it acts as and what this intentlog server offers, ' +
    'before it records or changes anything.',
  async run() {
    return [
      {
        role: 'user',
        text:
          'Call the intentlog tools `whoami` and `server_info`. Tell me which principal you act ' +
          'as, which projects you belong to and in which role, and which surfaces are served. ' +
          'Do not change anything yet.',
      },
    ];
  },
});

export const systemSurface: Surface = {
  name: 'system',
  title: 'intentlog server',
  instructions:
    'intentlog is a ledger of intent and work. `whoami` says who you act as; `server_info` ' +
    'says what this server serves. A failure is ok:false with error {code, message, details}.',
  tiers: ['all'],
  defaultTier: 'all',
  tools: [whoami, serverInfoTool],
  resources: [
    {
      name: 'server_info',
      uri: 'intentlog://server/info',
      title: 'Server info',
      description: 'The same facts as the server_info tool, as JSON.',
      mimeType: 'application/json',
      read: async (ctx) => JSON.stringify(await serverInfo(ctx)),
    },
  ],
  prompts: [orient],
};
