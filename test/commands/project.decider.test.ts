import { describe, it } from 'node:test';
import { deciderSpec } from './decider-spec.js';
import { isDomainError, type ErrorCode } from '../../src/commands/errors.js';
import type { Principal } from '../../src/commands/principal.js';
import { projectDecider, type ProjectEvent } from '../../src/commands/project/index.js';

const given = deciderSpec(projectDecider);

const system: Principal = { kind: 'system' };
const actor = (actor_id: string): Principal => ({ kind: 'actor', actor_id });

// the shared domain fixture: one project and its people
const created: ProjectEvent = {
  type: 'project.created',
  data: { project_id: 'p1', name: 'One', description: null },
};
const registered = (
  actor_id: string,
  role: 'PO' | 'PM' | 'IMPLEMENTER' | 'REVIEWER',
  registered_by = 'system',
): ProjectEvent => ({
  type: 'actor.registered',
  data: {
    project_id: 'p1',
    actor_id,
    surface: 'governance',
    role,
    display_name: null,
    registered_by,
  },
});
const bound: ProjectEvent = {
  type: 'root.bound',
  data: { project_id: 'p1', root_hash: 'h1', device: 'laptop' },
};

/** The decider refused with this domain error code. */
const withCode = (code: ErrorCode) => (error: Error) => isDomainError(error) && error.code === code;

describe('project decider', () => {
  describe('CreateProject', () => {
    it('creates a project when the system asks', () =>
      given([])
        .when({
          type: 'CreateProject',
          data: { project_id: 'p1', name: 'One', description: null, by: system },
        })
        .then([created]));

    it('refuses a second creation of the same project', () =>
      given([created])
        .when({
          type: 'CreateProject',
          data: { project_id: 'p1', name: 'Again', description: null, by: system },
        })
        .thenThrows(withCode('invalid_state')));

    it('refuses an actor creating a project', () =>
      given([])
        .when({
          type: 'CreateProject',
          data: { project_id: 'p1', name: 'One', description: null, by: actor('a') },
        })
        .thenThrows(withCode('forbidden')));
  });

  describe('RegisterActor', () => {
    const register = (actor_id: string, role: 'PO' | 'PM' | 'IMPLEMENTER', by: Principal) => ({
      type: 'RegisterActor' as const,
      data: { actor_id, surface: 'governance' as const, role, display_name: null, by },
    });

    it('registers an actor in an existing project', () =>
      given([created])
        .when(register('alice', 'PO', system))
        .then([registered('alice', 'PO')]));

    it('refuses to register in a project that does not exist', () =>
      given([])
        .when(register('alice', 'PO', system))
        .thenThrows(withCode('not_found')));

    it('lets a PO register others, stamping who did', () =>
      given([created, registered('alice', 'PO')])
        .when(register('bob', 'IMPLEMENTER', actor('alice')))
        .then([registered('bob', 'IMPLEMENTER', 'alice')]));

    it('refuses a non-member', () =>
      given([created])
        .when(register('bob', 'IMPLEMENTER', actor('mallory')))
        .thenThrows(withCode('forbidden')));

    it('refuses an implementer registering others', () =>
      given([created, registered('bob', 'IMPLEMENTER')])
        .when(register('carol', 'IMPLEMENTER', actor('bob')))
        .thenThrows(withCode('forbidden')));

    it('refuses a PM appointing a PO', () =>
      given([created, registered('pam', 'PM')])
        .when(register('carol', 'PO', actor('pam')))
        .thenThrows(withCode('forbidden')));

    it('refuses a PM changing a PO', () =>
      given([created, registered('alice', 'PO'), registered('pam', 'PM')])
        .when(register('alice', 'IMPLEMENTER', actor('pam')))
        .thenThrows(withCode('forbidden')));

    it('records nothing when the actor already has that role', () =>
      given([created, registered('alice', 'PO')])
        .when(register('alice', 'PO', system))
        .thenNothingHappened());

    it('changes a role by registering again', () =>
      given([created, registered('bob', 'IMPLEMENTER')])
        .when(register('bob', 'PM', system))
        .then([registered('bob', 'PM')]));
  });

  describe('BindRoot and UnbindRoot', () => {
    const bind = (by: Principal, device = 'laptop') => ({
      type: 'BindRoot' as const,
      data: { root_hash: 'h1', device, by },
    });
    const unbind = (by: Principal) => ({
      type: 'UnbindRoot' as const,
      data: { root_hash: 'h1', by },
    });

    it('binds a root for a member', () =>
      given([created, registered('bob', 'IMPLEMENTER')])
        .when(bind(actor('bob')))
        .then([bound]));

    it('refuses a non-member', () =>
      given([created])
        .when(bind(actor('mallory')))
        .thenThrows(withCode('forbidden')));

    it('records nothing when the root is already bound to that device', () =>
      given([created, bound]).when(bind(system)).thenNothingHappened());

    it('rebinds a root to another device', () =>
      given([created, bound])
        .when(bind(system, 'desktop'))
        .then([
          { type: 'root.bound', data: { project_id: 'p1', root_hash: 'h1', device: 'desktop' } },
        ]));

    it('unbinds a bound root, naming its device', () =>
      given([created, bound])
        .when(unbind(system))
        .then([
          { type: 'root.unbound', data: { project_id: 'p1', root_hash: 'h1', device: 'laptop' } },
        ]));

    it('refuses to unbind a root that is not bound', () =>
      given([created]).when(unbind(system)).thenThrows(withCode('not_found')));

    it('refuses to unbind in a project that does not exist', () =>
      given([]).when(unbind(system)).thenThrows(withCode('not_found')));
  });
});
