import { describe, it } from 'node:test';
import {
  decideMount,
  evolveMounts,
  type BindMount,
  type MountStreamEvent,
  type ProjectMounts,
} from '../../src/commands/missions/mounts.js';
import { SYSTEM, type Principal } from '../../src/commands/principal.js';
import {
  initialProject,
  projectDecider,
  type Project,
  type ProjectEvent,
} from '../../src/commands/project/index.js';
import {
  evolveRootHolder,
  initialRootHolder,
  type RootEvent,
  type RootHolder,
} from '../../src/commands/project/root.js';
import { deciderSpec } from '../commands/decider-spec.js';
import { withCode } from './fixture.js';

/** The three streams a mount decides over, as one decider for Given / When / Then. */
type World = { project: Project; holder: RootHolder; mounts: ProjectMounts };
const world = {
  initialState: (): World => ({
    project: initialProject(),
    holder: initialRootHolder(),
    mounts: {},
  }),
  evolve: (w: World, e: MountStreamEvent): World => {
    if (e.type === 'mission_project.mounted') return { ...w, mounts: evolveMounts(w.mounts, e) };
    if (e.type === 'root.claimed' || e.type === 'root.released')
      return { ...w, holder: evolveRootHolder(w.holder, e as RootEvent) };
    return { ...w, project: projectDecider.evolve(w.project, e as ProjectEvent) };
  },
  decide: (cmd: BindMount, w: World): MountStreamEvent[] =>
    decideMount(w.project, w.holder, w.mounts, cmd).flat(),
};
const given = deciderSpec(world);

const sam: Principal = { kind: 'actor', actor_id: 'sam' };
const eve: Principal = { kind: 'actor', actor_id: 'eve' };
const HASH = 'a'.repeat(64);
const created: MountStreamEvent = {
  type: 'project.created',
  data: { project_id: 'demo', name: 'demo', description: null },
};
const role = (actor_id: string, surface: 'missions' | 'storymap', r: string): MountStreamEvent =>
  ({
    type: 'actor.registered',
    data: {
      project_id: 'demo',
      actor_id,
      surface,
      role: r,
      display_name: null,
      registered_by: 'system',
    },
  }) as MountStreamEvent;
const bind = (by: Principal, extra: Partial<BindMount> = {}): BindMount => ({
  project_id: 'demo',
  device_id: 'laptop',
  local_path: '/home/sam/demo',
  root_hash: HASH,
  implicit: false,
  reason: 'my laptop',
  owner_ack: true,
  by,
  ...extra,
});
const mounted = (data: Partial<BindMount> = {}): MountStreamEvent => {
  const { by: _b, owner_ack: _a, ...rest } = bind(SYSTEM, data);
  return { type: 'mission_project.mounted', data: rest };
};

describe('mounts on the project aggregate (decider)', () => {
  it('binds root, claim and path together for a missions owner', () =>
    given([created, role('sam', 'missions', 'owner')])
      .when(bind(sam))
      .then([
        { type: 'root.bound', data: { project_id: 'demo', root_hash: HASH, device: 'laptop' } },
        { type: 'root.claimed', data: { project_id: 'demo', root_hash: HASH, device: 'laptop' } },
        mounted(),
      ]));

  it('refuses an explicit bind without owner_ack and a reason', () => {
    given([created])
      .when(bind(SYSTEM, { owner_ack: false }))
      .thenThrows(withCode('owner_gate_required'));
    given([created])
      .when(bind(SYSTEM, { reason: ' ' }))
      .thenThrows(withCode('owner_gate_required'));
  });

  it('refuses a caller without the missions owner role (another surface’s role does not count)', () => {
    given([created]).when(bind(eve)).thenThrows(withCode('owner_role_required'));
    given([created, role('eve', 'storymap', 'owner')])
      .when(bind(eve))
      .thenThrows(withCode('owner_role_required', (d) => d.required_role === 'owner'));
  });

  it('refuses a project that does not exist', () =>
    given([]).when(bind(SYSTEM)).thenThrows(withCode('missing_project')));

  it('a root belongs to one project: refused while another project holds it', () =>
    given([
      created,
      { type: 'root.claimed', data: { project_id: 'intent-x', root_hash: HASH, device: 'laptop' } },
    ])
      .when(bind(SYSTEM))
      .thenThrows(
        withCode(
          'invalid_args',
          (d) => (d.bound_to as { project_id: string }).project_id === 'intent-x',
        ),
      ));

  it('an implicit mount needs no acknowledgement and no role, and is not repeated', () => {
    given([created])
      .when(bind(SYSTEM, { implicit: true, owner_ack: false }))
      .then([
        { type: 'root.bound', data: { project_id: 'demo', root_hash: HASH, device: 'laptop' } },
        { type: 'root.claimed', data: { project_id: 'demo', root_hash: HASH, device: 'laptop' } },
        mounted({ implicit: true }),
      ]);
    given([
      created,
      { type: 'root.bound', data: { project_id: 'demo', root_hash: HASH, device: 'laptop' } },
      { type: 'root.claimed', data: { project_id: 'demo', root_hash: HASH, device: 'laptop' } },
      mounted(),
    ])
      .when(bind(SYSTEM, { implicit: true, owner_ack: false }))
      .then([]);
  });
});
