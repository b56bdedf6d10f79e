import assert from 'node:assert/strict';
import type { App } from '../../src/app/app.js';
import { governance } from '../../src/app/governance/index.js';
import { SYSTEM, type Principal } from '../../src/commands/principal.js';
import { intentClient, openAt, userSource, withDir } from '../intent/harness.js';

export const olivia: Principal = { kind: 'actor', actor_id: 'olivia' };
export const sam: Principal = { kind: 'actor', actor_id: 'sam' };

/** A task of `by`'s in the root's project, with one statement only its owner may read. */
const taskOf = async (app: App, root: string, by: Principal, statement: string) => {
  const c = await intentClient(app, [root], by);
  try {
    const start = await c.call('intent_start_task', {
      claims: [
        {
          epistemic_status: 'explicit',
          basis: 'direct_statement',
          statement,
          source_ref: userSource,
        },
      ],
    });
    assert.ok(start.ok, JSON.stringify(start.error));
    return { project: start.project_id!, task: start.task_id! };
  } finally {
    await c.close();
  }
};

/**
 * One project shared by two members (both PO and IMPLEMENTER on governance), each with an
 * intent task of their own.
 */
export const sharedProject = async (app: App, root: string) => {
  const { project } = await taskOf(app, root, SYSTEM, 'The local user wants a changelog');
  const g = governance(app);
  for (const [actor_id, role] of [
    ['olivia', 'PO'],
    ['sam', 'IMPLEMENTER'],
  ] as const)
    await g.registerActor(
      { project_id: project, actor_id, role },
      { principal: SYSTEM, idempotencyKey: `r-${actor_id}` },
    );
  const oliviasTask = await taskOf(app, root, olivia, 'Olivia wants dark mode');
  const samsTask = await taskOf(app, root, sam, 'Sam keeps the API stable');
  return { root, project, oliviasTask: oliviasTask.task, samsTask: samsTask.task };
};

export type Shared = Awaited<ReturnType<typeof sharedProject>>;

/** An app on LevelDB in a fresh data dir, with the shared project in a fresh root. */
export const withSharedProject = (body: (app: App, w: Shared) => Promise<void>) =>
  withDir((data) =>
    withDir(async (root) => {
      const app = await openAt(data);
      try {
        await body(app, await sharedProject(app, root));
      } finally {
        await app.close();
      }
    }),
  );
