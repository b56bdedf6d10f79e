import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storymap } from '../../src/app/storymap/index.js';
import { NO_PROJECT } from '../../src/app/storymap/access.js';
import { SYSTEM } from '../../src/commands/principal.js';
import { governanceSurface } from '../../src/mcp/governance/index.js';
import { storyMapLocalSurface } from '../../src/mcp/storymap/local.js';
import { storyMapSurface } from '../../src/mcp/storymap/index.js';
import { systemSurface } from '../../src/mcp/surfaces/system.js';
import type { Surface } from '../../src/mcp/tool.js';
import {
  callAs,
  governanceArgs,
  localArgs,
  storymapArgs,
  systemArgs,
  type Args,
} from './authorization-calls.js';
import { tableOf, type Row } from './authorization-table.js';
import {
  G,
  GOVERNANCE_CAST,
  STORYMAP_CAST,
  withWorld,
  type Endpoint,
  type Who,
  type World,
} from './authorization-world.js';

/**
 * docs/authorization.md, walked: every tool of a surface by SYSTEM, a member in each of its
 * roles, a member of the project who holds a role on another surface only, and Sam, who is a
 * member of neither project. A principal the table names is not refused (and one of them
 * succeeds); every other is refused as the table says, and the log's head does not move.
 */
type Walk = {
  section: string;
  surface: Surface;
  endpoint: Endpoint;
  args: Record<string, Args>;
  /** who each word of the table's second column names */
  names: Record<string, readonly Who[]>;
};

const governanceMembers = Object.keys(GOVERNANCE_CAST) as Who[];
const byRole = (cast: Record<string, string>) =>
  Object.fromEntries(Object.entries(cast).map(([who, role]) => [role, [who as Who]]));
const ANYONE = 'anyone authenticated';
const everyone: readonly Who[] = [
  'system',
  ...governanceMembers,
  ...(Object.keys(STORYMAP_CAST) as Who[]),
  'sam',
];

const storyMapNames = {
  SYSTEM: ['system'],
  ...byRole(STORYMAP_CAST),
  [ANYONE]: everyone,
} as Record<string, readonly Who[]>;

const WALKS: readonly Walk[] = [
  {
    section: 'Governance',
    surface: governanceSurface,
    endpoint: 'mcp',
    args: governanceArgs,
    names: {
      SYSTEM: ['system'],
      ...byRole(GOVERNANCE_CAST),
      'every member': governanceMembers,
      'the claimant': ['ivan'],
      'the assigned reviewer': ['rita'],
    },
  },
  {
    section: 'Story map (hosted)',
    surface: storyMapSurface,
    endpoint: 'storymap',
    args: storymapArgs,
    names: storyMapNames,
  },
  {
    section: 'Story map (local)',
    surface: storyMapLocalSurface,
    endpoint: 'storymap-local',
    args: localArgs,
    names: storyMapNames,
  },
  {
    section: 'System',
    surface: systemSurface,
    endpoint: 'mcp',
    args: systemArgs,
    names: { [ANYONE]: everyone },
  },
];

const admitted = (walk: Walk, row: Row): Set<Who> =>
  new Set(
    row.who.flatMap((word) => {
      const named = walk.names[word];
      assert.ok(named, `${walk.section}, ${row.tool}: the table names "${word}", which is no one`);
      return named;
    }),
  );

/** The project's archive state is the only one the walk undoes: every later call needs S live. */
const settle = async (w: World, tool: string) => {
  if (tool === 'archive_project' || tool === 'restore_project')
    await storymap(w.app)
      .archive({ project_id: w.S }, SYSTEM, false)
      .catch(() => undefined);
};

/**
 * Who the walk calls as: everyone, so that on every surface it meets the project's members
 * without a role there (Cora in G, Olivia in S), members of the other project, and Sam.
 */
const outsidersOf = (walk: Walk): Set<Who> => {
  const members = new Set(
    Object.entries(walk.names).flatMap(([word, who]) => (word === ANYONE ? [] : who)),
  );
  return new Set(everyone.filter((p) => !members.has(p)));
};

const isAccessRefusal = (e: { code: string; message: string }) =>
  e.code === 'forbidden' || e.message === NO_PROJECT;

/** One principal's call of one tool, checked against the row. */
const check = async (w: World, walk: Walk, row: Row, who: Who, allowed: boolean) => {
  const tool = walk.surface.tools.find((t) => t.name === row.tool)!;
  const args = await walk.args[row.tool]!(w, who);
  const before = await w.app.log.head();
  const answer = await callAs(w, who, walk.endpoint, row.tool, args);
  const after = await w.app.log.head();
  await settle(w, row.tool);
  const as = `${row.tool} as ${who}`;
  if (allowed) {
    assert.ok(answer.ok || !isAccessRefusal(answer.error!), `${as}: ${answer.error?.message}`);
    if (tool.annotations?.readOnlyHint) assert.equal(after, before, `${as}: a read appended`);
    return answer.ok;
  }
  assert.equal(answer.ok, false, `${as} was not refused`);
  const outsider = outsidersOf(walk).has(who);
  const code = outsider ? row.nonMember : 'forbidden';
  assert.equal(answer.error!.code, code, `${as}: ${answer.error!.message}`);
  if (outsider && code === 'not_found') assert.equal(answer.error!.message, NO_PROJECT);
  assert.equal(after, before, `${as}: a refusal appended`);
  return false;
};

const walkSurface = (walk: Walk) =>
  withWorld(async (w) => {
    const rows = tableOf(walk.section);
    assert.deepEqual(
      rows.map((r) => r.tool).sort(),
      walk.surface.tools.map((t) => t.name).sort(),
      `docs/authorization.md, "${walk.section}": one row per tool the surface serves`,
    );
    for (const row of rows) {
      assert.ok(walk.args[row.tool], `the walk has no arguments for ${row.tool}`);
      const allowed = admitted(walk, row);
      const refused = everyone.filter((p) => !allowed.has(p));
      for (const who of refused) await check(w, walk, row, who, false);
      let succeeded = 0;
      for (const who of allowed) if (await check(w, walk, row, who, true)) succeeded++;
      assert.ok(succeeded > 0, `${row.tool}: no principal the table admits succeeded`);
    }
  });

describe('authorization on every surface, one model (docs/authorization.md)', () => {
  for (const walk of WALKS)
    it(`${walk.section}: every tool, by SYSTEM, each role, another surface's member and a stranger`, () =>
      walkSurface(walk));
});

describe('answers that are per caller', () => {
  it('list_projects, get_founder_todo and whoami answer each principal its own projects', () =>
    withWorld(async (w) => {
      const ids = async (who: Who) =>
        (
          (await callAs(w, who, 'storymap', 'list_projects', {})).result as unknown as {
            id: string;
          }[]
        ).map((p) => p.id);
      assert.deepEqual(await ids('sam'), [w.T]);
      assert.deepEqual(await ids('vic'), [w.S]);
      assert.deepEqual(await ids('olivia'), [], 'a governance role is no story-map role');
      const todo = await callAs(w, 'sam', 'storymap', 'get_founder_todo', {});
      assert.equal((todo.result as { projects: number }).projects, 1);
      assert.ok(!JSON.stringify(todo.result).includes('Photo Book'));
      const whoami = await callAs(w, 'sam', 'mcp', 'whoami', {});
      const memberships = (whoami.result as { memberships: { project_id: string }[] }).memberships;
      assert.deepEqual(
        memberships.map((m) => m.project_id),
        [w.T],
      );
      const cora = await callAs(w, 'cora', 'mcp', 'whoami', {});
      const hers = (cora.result as { memberships: { project_id: string }[] }).memberships;
      assert.deepEqual(hers.map((m) => m.project_id).sort(), [G, w.S].sort());
    }));

  it("the local server's resources are the linked project's members' only; its card and prompts are everyone's", () =>
    withWorld(async (w) => {
      const uris = (await w.client('vic', 'storymap-local').listResources()).resources.map(
        (r) => r.uri,
      );
      for (const uri of uris.filter((u) => u.startsWith('intentlog://project/'))) {
        const before = await w.app.log.head();
        await assert.rejects(
          w.client('sam', 'storymap-local').readResource({ uri }),
          /Project not found or access denied/,
          `${uri} answered a stranger`,
        );
        await assert.rejects(w.client('olivia', 'storymap-local').readResource({ uri }));
        const read = await w.client('vic', 'storymap-local').readResource({ uri });
        assert.ok(read.contents.length > 0, uri);
        assert.equal(await w.app.log.head(), before, `reading ${uri} appended`);
      }
      const card = await w
        .client('sam', 'storymap')
        .readResource({ uri: 'ui://intentlog/card.html' });
      assert.ok(!JSON.stringify(card).includes(w.S), 'the card is the package’s file');
      const prompt = await w.client('sam', 'storymap').getPrompt({ name: 'spec-my-idea' });
      assert.ok(!JSON.stringify(prompt).includes('Photo Book'));
    }));
});
