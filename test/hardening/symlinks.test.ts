import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { App } from '../../src/app/app.js';
import { configureMissions, missions } from '../../src/app/missions/service.js';
import { bindRepoRoot } from '../../src/app/storymap/root.js';
import { findLink, writeLink } from '../../src/app/storymap/link.js';
import { isDomainError } from '../../src/commands/errors.js';
import { SYSTEM, type Principal } from '../../src/commands/principal.js';
import { serverFactory } from '../../src/mcp/server.js';
import { resolveSurfaces } from '../../src/mcp/surfaces/index.js';
import { modules, openIntentlog, surfacesOf } from '../../src/modules/index.js';
import { silent } from '../mcp/harness.js';
import { VISION } from '../storymap/session.js';

/**
 * Every path-taking tool of every surface against every kind of link: a table of (tool,
 * argument, link kind) → the answer expected, and the files outside the project untouched
 * (compared byte for byte, with every name and link, before and after each row).
 *
 * The caller is an actor whose client declares the projects' parent as its root (so the
 * directory policy lets it work there); intent's rows run as the local user.
 */

type Envelope = {
  ok: boolean;
  project_id: string | null;
  result?: Record<string, unknown>;
  error?: unknown;
};
type Call = (name: string, args: Record<string, unknown>) => Promise<Envelope>;

const KINDS = [
  'linked file',
  'linked directory',
  'link in a middle component',
  'dangling link',
  'link to /proc',
] as const;
type Kind = (typeof KINDS)[number];

const ana: Principal = { kind: 'actor', actor_id: 'ana' };

/** A client of `surface` for `principal`, whose session declares `roots`. */
const clientOf = async (app: App, surface: string, principal: Principal, roots: string[]) => {
  const factory = serverFactory({
    app,
    selection: resolveSurfaces(surfacesOf(modules), surface),
    transport: 'stdio',
    principalOf: () => principal,
    log: silent,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await factory().connect(serverSide);
  const client = new Client({ name: 'links', version: '1' }, { capabilities: { roots: {} } });
  client.setRequestHandler('roots/list', async () => ({
    roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: 'root' })),
  }));
  await client.connect(clientSide);
  const call: Call = async (name, args) =>
    (await client.callTool({ name, arguments: args })).structuredContent as Envelope;
  return { client, call };
};

/** Everything under a directory: names, bytes and link targets. */
const snapshot = async (dir: string): Promise<Record<string, string>> => {
  const out: Record<string, string> = {};
  const walk = async (at: string) => {
    for (const name of (await readdir(at)).sort()) {
      const path = join(at, name);
      const st = await lstat(path);
      if (st.isSymbolicLink()) out[path] = `-> ${await readlink(path)}`;
      else if (st.isDirectory()) {
        out[path] = '<dir>';
        await walk(path);
      } else out[path] = await readFile(path, 'utf8');
    }
  };
  await walk(dir);
  return out;
};

let app: App;
let base: string;
let outside: string;
let projects: string;
let missionsCall: Call;
let intentCall: Call;
let storymapCall: Call;
let repo: string;
let mapId: string;
let storyId: string;
const closers: (() => Promise<void>)[] = [];
let seq = 0;

/**
 * Places a link of `kind` at `at` (a path under a project), aimed at a file or a directory
 * outside; answers the argument to pass (relative to the project for `relativeTo`).
 */
const plant = async (at: string, kind: Kind, wants: 'file' | 'dir'): Promise<string> => {
  await mkdir(dirname(at), { recursive: true });
  switch (kind) {
    case 'linked file':
      await symlink(join(outside, 'victim.txt'), at);
      return at;
    case 'linked directory':
      await symlink(join(outside, 'victim-dir'), at);
      return at;
    case 'link in a middle component': {
      // at/… : `at` is a link to the outside directory, the name under it is what it holds
      await symlink(outside, at);
      return join(at, wants === 'file' ? 'victim.txt' : 'victim-dir');
    }
    case 'dangling link':
      await symlink(join(outside, `made-by-attack-${seq}`), at);
      return at;
    case 'link to /proc':
      await symlink(wants === 'file' ? '/proc/self/environ' : '/proc/1', at);
      return at;
  }
};

/** A fresh project directory under the client's root. */
const freshProject = async () => {
  const dir = join(projects, `case-${++seq}`);
  await mkdir(dir, { recursive: true });
  return dir;
};

// missions answers carry the code as a string (flat); intent's as an object
const codeOf = (e: Envelope) =>
  e.ok ? 'ok' : typeof e.error === 'string' ? e.error : (e.error as { code: string }).code;
const rel = (root: string, path: string) => path.slice(root.length + 1);

/** A project with an open mission (criterion C1), for rows that need one. */
const withMission = async (root: string, allowed: string[] = ['src']) => {
  const opened = await missionsCall('hai_open_mission', {
    objective: 'Ship the CSV export of the report',
    artifact: 'src/export/csv.ts',
    done_criteria: [{ id: 'C1', description: 'export writes a valid CSV file' }],
    owner: 'ana',
    constraints: { project_path: root, allowed_paths: allowed },
  });
  assert.equal(codeOf(opened), 'ok', JSON.stringify(opened.error));
  return opened.result!.mission_id as string;
};

type Row = {
  tool: string;
  argument: string;
  wants: 'file' | 'dir';
  /** the answer: an error code, `ok`, or an activity's classification; null: only untouched */
  expect: (kind: Kind) => string | null;
  run: (kind: Kind) => Promise<string>;
};

/**
 * A project directory named through a link resolves to where the link points: outside the
 * client's roots, not a directory, missing, or a kernel file system.
 */
const rootAnswer = (kind: Kind) =>
  kind === 'linked file' || kind === 'dangling link'
    ? 'missing_project'
    : kind === 'link to /proc'
      ? 'invalid_args'
      : 'path_outside_root';

/** A fresh project with a link of `kind` as its directory `name` (a middle link: the same). */
const withLinkedDir = async (name: string, kind: Kind) => {
  const root = await freshProject();
  await plant(
    join(root, name),
    kind === 'link in a middle component' ? 'linked directory' : kind,
    'dir',
  );
  return root;
};

/** A fresh project whose PROJECT_STATE.md is reached through a link of `kind`. */
const withLinkedArtifact = async (kind: Kind) => {
  if (kind === 'link in a middle component') return withLinkedDir('Projek-Managment', kind);
  const root = await freshProject();
  await plant(join(root, 'Projek-Managment', 'PROJECT_STATE.md'), kind, 'file');
  return root;
};

/** The code of a call that throws a domain error, or `ok`. */
const codeOfCall = async (work: () => Promise<unknown>) => {
  try {
    await work();
    return 'ok';
  } catch (error) {
    return isDomainError(error) ? error.code : String(error);
  }
};

const rows: Row[] = [
  {
    tool: 'hai_park',
    argument: 'project_path',
    wants: 'dir',
    expect: rootAnswer,
    run: async (kind) => {
      const path = await plant(join(projects, `root-${++seq}`), kind, 'dir');
      return codeOf(await missionsCall('hai_park', { project_path: path, text: 'x' }));
    },
  },
  {
    tool: 'hai_bind_project',
    argument: 'local_path',
    wants: 'dir',
    expect: rootAnswer,
    run: async (kind) => {
      const path = await plant(join(projects, `bind-${++seq}`), kind, 'dir');
      return codeOf(
        await missionsCall('hai_bind_project', {
          project_id: `bound-${seq}`,
          device_id: 'laptop',
          local_path: path,
          owner_ack: true,
          reason: 'links',
        }),
      );
    },
  },
  {
    tool: 'hai_park',
    argument: 'the artifact directory (Projek-Managment)',
    wants: 'dir',
    expect: () => 'path_outside_root',
    run: async (kind) => {
      const root = await withLinkedDir('Projek-Managment', kind);
      return codeOf(await missionsCall('hai_park', { project_path: root, text: 'x' }));
    },
  },
  {
    tool: 'hai_read_artifacts',
    argument: 'the artifact directory (Projek-Managment)',
    wants: 'dir',
    expect: () => 'path_outside_root',
    run: async (kind) => {
      const root = await withLinkedDir('Projek-Managment', kind);
      return codeOf(await missionsCall('hai_read_artifacts', { project_path: root }));
    },
  },
  {
    tool: 'hai_read_artifacts',
    argument: 'an artifact file (PROJECT_STATE.md)',
    wants: 'file',
    expect: () => 'path_outside_root',
    run: async (kind) => {
      const root = await withLinkedArtifact(kind);
      return codeOf(await missionsCall('hai_read_artifacts', { project_path: root }));
    },
  },
  {
    tool: 'hai_park',
    argument: 'an artifact file (PROJECT_STATE.md): the link is replaced, never followed',
    wants: 'file',
    expect: (k) => (k === 'link in a middle component' ? 'path_outside_root' : 'ok'),
    run: async (kind) => {
      const root = await withLinkedArtifact(kind);
      const at = join(root, 'Projek-Managment', 'PROJECT_STATE.md');
      const answer = codeOf(await missionsCall('hai_park', { project_path: root, text: 'x' }));
      // the artifact sink writes off the call's path: wait for it
      if (answer === 'ok') assert.ok(await missions(app).core.artifactsSettled());
      if (answer === 'ok')
        assert.ok((await lstat(at)).isFile(), 'the link was replaced by the file');
      return answer;
    },
  },
  {
    tool: 'hai_open_mission',
    argument: 'constraints.allowed_paths',
    wants: 'dir',
    expect: () => 'path_outside_root',
    run: async (kind) => {
      const root = await freshProject();
      const path = await plant(join(root, 'area'), kind, 'dir');
      const answer = await missionsCall('hai_open_mission', {
        objective: 'Ship the CSV export of the report',
        artifact: 'src/export/csv.ts',
        done_criteria: [{ id: 'C1', description: 'export writes a valid CSV file' }],
        owner: 'ana',
        constraints: { project_path: root, allowed_paths: [rel(root, path)] },
      });
      return codeOf(answer);
    },
  },
  {
    tool: 'hai_proof',
    argument: 'evidence paths',
    wants: 'file',
    expect: () => 'path_outside_root',
    run: async (kind) => {
      const root = await freshProject();
      const mission_id = await withMission(root);
      const path = await plant(join(root, 'proof.txt'), kind, 'file');
      const answer = await missionsCall('hai_proof', {
        project_path: root,
        mission_id,
        contract_version: 1,
        outcome_summary: 'done',
        evidence: { C1: { paths: [rel(root, path)] } },
      });
      return codeOf(answer);
    },
  },
  {
    tool: 'hai_check_activity',
    argument: 'affected_paths (classified, not refused)',
    wants: 'file',
    expect: () => 'drift',
    run: async (kind) => {
      const root = await freshProject();
      const mission_id = await withMission(root, []);
      const lease = await missionsCall('hai_authorize_session', {
        project_path: root,
        mission_id,
        contract_version: 1,
        agent_identity: 'agent',
        role: 'implementer',
        contribution: 'x',
        expected_result: 'y',
        duration_minutes: 30,
        criterion_ids: ['C1'],
        request_id: `lease-${seq}`,
      });
      const path = await plant(join(root, 'src', 'file.ts'), kind, 'file');
      const checked = await missionsCall('hai_check_activity', {
        project_path: root,
        session_id: lease.result!.session_id,
        activity_step: 'edit the file',
        criterion_id: 'C1',
        affected_paths: [rel(root, path)],
      });
      return checked.ok ? String(checked.result!.classification) : codeOf(checked);
    },
  },
  {
    tool: 'get_design (storymap)',
    argument: 'a repo-path design reference',
    wants: 'file',
    expect: () => 'invalid_argument',
    run: async (kind) => {
      const path = await plant(join(repo, 'design', `d-${++seq}.html`), kind, 'file');
      const saved = await storymapCall('save_design', {
        project_id: mapId,
        story_id: storyId,
        url: rel(repo, path),
      });
      assert.equal(codeOf(saved), 'ok', JSON.stringify(saved.error));
      const ref = (saved.result!.ref as { id: string }).id;
      return codeOf(
        await storymapCall('get_design', { project_id: mapId, story_id: storyId, ref_id: ref }),
      );
    },
  },
  {
    tool: 'storymap-local tools (findLink)',
    argument: '.intentlog/config.json',
    wants: 'file',
    expect: () => 'link_invalid',
    run: async (kind) => {
      let root: string;
      if (kind === 'link in a middle component') root = await withLinkedDir('.intentlog', kind);
      else {
        root = await freshProject();
        await plant(join(root, '.intentlog', 'config.json'), kind, 'file');
      }
      // what a followed link would read: a link file naming another project (restored below)
      await writeFile(join(outside, 'victim.txt'), '{"project_id":"stolen"}');
      try {
        return await codeOfCall(() => findLink(root));
      } finally {
        await writeFile(join(outside, 'victim.txt'), 'original');
      }
    },
  },
  {
    tool: 'intentlog storymap link (writeLink)',
    argument: '.intentlog directory',
    wants: 'dir',
    expect: () => 'link_invalid',
    run: async (kind) => {
      const root = await withLinkedDir('.intentlog', kind);
      return codeOfCall(() => writeLink(root, { project_id: 'p' }));
    },
  },
  {
    tool: 'intent_start_task',
    argument: 'project_root',
    wants: 'dir',
    // intent keeps only the root's hash and writes nothing under it: a link to a directory is
    // that directory; what is no directory is refused. (/proc: no expectation on the answer.)
    expect: (k) =>
      k === 'linked file' || k === 'dangling link'
        ? 'PROJECT_ROOT_INVALID'
        : k === 'link to /proc'
          ? null
          : 'ok',
    run: async (kind) => {
      const path = await plant(join(projects, `intent-${++seq}`), kind, 'dir');
      return codeOf(
        await intentCall('intent_start_task', { project_root: path, request_id: `r-${seq}` }),
      );
    },
  },
];

describe('links in every path a tool takes', { skip: !existsSync('/proc/self/environ') }, () => {
  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'intentlog-links-')));
    outside = join(base, 'outside');
    projects = join(base, 'projects');
    repo = join(projects, 'repo');
    await mkdir(join(outside, 'victim-dir'), { recursive: true });
    await writeFile(join(outside, 'victim.txt'), 'original');
    await writeFile(join(outside, 'victim-dir', 'PROJECT_STATE.md'), 'original');
    // what a followed link would find: a link file naming another project
    await writeFile(join(outside, 'victim-dir', 'config.json'), '{"project_id":"stolen"}');
    await mkdir(join(repo, 'design'), { recursive: true });
    app = await openIntentlog({ store: 'memory', dataDir: join(base, 'home') });
    configureMissions(app, {
      ownerDir: join(base, 'owner'),
      gateMode: 'nonce',
      codeTtlSeconds: 600,
      deviceId: 'laptop',
      warnings: [],
    });
    const m = await clientOf(app, 'missions', ana, [projects]);
    const i = await clientOf(app, 'intent', SYSTEM, []);
    const s = await clientOf(app, 'storymap', ana, [repo]);
    for (const c of [m, i, s]) closers.push(() => c.client.close());
    missionsCall = m.call;
    intentCall = i.call;
    storymapCall = s.call;
    const created = await storymapCall('create_project', { name: 'Links', idea: 'links' });
    mapId = created.result!.project_id as string;
    await storymapCall('set_vision', { project_id: mapId, answers: VISION });
    const made = await storymapCall('create_stories', {
      project_id: mapId,
      stories: [{ title: 'Upload photos' }],
    });
    storyId = (made.result!.stories as { id: string }[])[0]!.id;
    await bindRepoRoot(app, { project_id: mapId, dir: repo }, ana);
  });
  after(async () => {
    for (const close of closers) await close();
    await app.close();
    await rm(base, { recursive: true, force: true });
  });

  for (const row of rows)
    for (const kind of KINDS)
      it(`${row.tool} · ${row.argument} · ${kind} → ${row.expect(kind) ?? 'outside untouched'}`, async () => {
        const before = await snapshot(outside);
        const answer = await row.run(kind);
        const expected = row.expect(kind);
        if (expected !== null) assert.equal(answer, expected);
        assert.deepEqual(
          await snapshot(outside),
          before,
          'the files outside the project are untouched',
        );
      });
});
