import { describe, it } from 'node:test';
import { deciderSpec } from '../commands/decider-spec.js';
import { workPackageDecider } from '../../src/commands/governance/work-package.js';
import type {
  WorkPackageCommand,
  WorkPackageEvent,
} from '../../src/commands/governance/work-package-state.js';
import type { Caller } from '../../src/commands/governance/roles.js';
import { history, impl, on, pa, reviewer, system, withCode } from './fixture.js';

const given = deciderSpec(workPackageDecider);

const commit = (commit_id: string, by: Caller = impl): WorkPackageCommand => ({
  type: 'LinkCommit',
  data: { by, commit_id, repository: 'github.com/acme/app' },
});
const artifact = (uri: string, by: Caller = impl): WorkPackageCommand => ({
  type: 'LinkArtifact',
  data: { by, uri, title: 'design' },
});
const linked = (commit_id: string, by: Caller = impl): WorkPackageEvent => ({
  type: 'commit.linked',
  data: {
    ...on,
    commit_id,
    repository: 'github.com/acme/app',
    linked_by: by.actor_id,
  },
});

describe('links: link_commit', () => {
  const sha1 = '0123456789abcdef0123456789abcdef01234567';
  for (const by of [impl, reviewer, pa])
    it(`${by.role} links a commit`, () =>
      given([history.issued()])
        .when(commit(sha1, by))
        .then([linked(sha1, by)]));

  it('object ids are stored in lower case', () =>
    given([history.issued()])
      .when(commit('ABCDEF12'))
      .then([linked('abcdef12')]));

  it('a SHA-256 object id (64 digits) is valid', () =>
    given([history.issued()])
      .when(commit('a'.repeat(64)))
      .then([linked('a'.repeat(64))]));

  for (const bad of ['not-a-sha', 'abc', 'a'.repeat(65), 'g123456', '1234 5678'])
    it(`"${bad}" is invalid_argument`, () =>
      given([history.issued()]).when(commit(bad)).thenThrows(withCode('invalid_argument')));

  it('linking the same commit again changes nothing', () =>
    given([history.issued(), linked('abcdef12')])
      .when(commit('ABCDEF12'))
      .thenNothingHappened());

  it('SYSTEM is no member', () =>
    given([history.issued()]).when(commit(sha1, system)).thenThrows(withCode('forbidden')));

  it('an unknown package is not_found', () =>
    given([]).when(commit(sha1)).thenThrows(withCode('not_found')));
});

describe('links: link_artifact', () => {
  it('links an absolute URI', () =>
    given([history.issued()])
      .when(artifact('https://example.com/design.pdf'))
      .then([
        {
          type: 'artifact.linked',
          data: {
            ...on,
            uri: 'https://example.com/design.pdf',
            title: 'design',
            linked_by: 'ivan',
          },
        },
      ]));

  for (const bad of ['design.pdf', '/tmp/x', ''])
    it(`"${bad}" is invalid_argument`, () =>
      given([history.issued()]).when(artifact(bad)).thenThrows(withCode('invalid_argument')));
});
