import type { Decider } from '@event-driven-io/emmett';
import { z } from 'zod';
import { perApp } from '../../src/app/per-app.js';
import type { App } from '../../src/app/app.js';
import { domainError } from '../../src/commands/errors.js';
import { runCommand } from '../../src/commands/handler.js';
import { principalId } from '../../src/commands/principal.js';
import { defineEvent, type EventOf } from '../../src/events/catalog/define.js';
import { streamName } from '../../src/events/stream-name.js';
import { Annotations, defineTool } from '../../src/mcp/tool.js';
import { defineModule } from '../../src/modules/index.js';
import { defineProjector, modelKey } from '../../src/projections/projector.js';

/**
 * A context made for tests, declared the way docs/architecture.md says: one event, one decider,
 * one typed read model, a surface with a contract code of its own and an envelope field, all
 * registered through `defineModule` alone.
 */
export const TinyNoted = defineEvent(
  'tiny.noted',
  z.object({ project_id: z.string(), note_id: z.string(), text: z.string() }),
);
type TinyEvent = EventOf<typeof TinyNoted>;
type TinyCommand = { type: 'Note'; data: { note_id: string; text: string; project_id: string } };

const tinyDecider: Decider<{ notes: number }, TinyCommand, TinyEvent> = {
  decide: ({ data }) => {
    if (data.text.trim() === '') throw domainError('TINY_EMPTY', 'a note needs words');
    return [{ type: 'tiny.noted', data }];
  },
  evolve: (state) => ({ notes: state.notes + 1 }),
  initialState: () => ({ notes: 0 }),
};

export const tinyNotes = defineProjector({
  name: 'tiny.notes',
  version: 1,
  events: [TinyNoted],
  async apply(event, tx) {
    // typed: event.data.text is a string, no cast
    tx.put(modelKey(event.project_id, event.data.note_id), event.data.text.toUpperCase());
  },
});

const tiny = perApp((app: App) => ({
  note: (args: { project_id: string; note_id: string; text: string }, by: string) =>
    runCommand(app.log, {
      decider: tinyDecider,
      stream: streamName({
        aggregateType: 'tiny.note',
        projectId: args.project_id,
        aggregateId: args.note_id,
      }),
      command: { type: 'Note', data: args },
      meta: { actor_id: by, actor_role: 'NONE', correlation_id: null, causation_event_id: null },
      respond: (state) => ({ notes: state.notes }),
    }),
  async read(projectId: string, noteId: string, position: number) {
    await app.waitFor(position, ['tiny.notes']);
    return app.log.models.get<string>(`tiny.notes/${modelKey(projectId, noteId)}`);
  },
}));

const Args = { project_id: z.string(), note_id: z.string() };

export const tinyModule = defineModule({
  name: 'tiny',
  events: [TinyNoted],
  projectors: [tinyNotes],
  surfaces: [
    {
      name: 'tiny',
      title: 'tiny test surface',
      instructions: 'test only',
      tiers: ['all'],
      defaultTier: 'all',
      envelope: { note_id: z.string().nullable() },
      envelopeOf: (args) => ({ note_id: (args as { note_id?: string } | null)?.note_id ?? null }),
      errorCodes: { invalid_argument: 'TINY_BAD_INPUT' },
      tools: [
        defineTool({
          name: 'create_project',
          title: 'Note',
          description: 'Writes a note (named like governance’s tool on purpose: they clash).',
          input: z.strictObject({ ...Args, text: z.string() }),
          output: z.object({ notes: z.number(), shouted: z.string() }),
          annotations: Annotations.mutation({ destructive: false, idempotent: false }),
          tier: 'all',
          async run(args, { app, principal }) {
            const outcome = await tiny(app).note(args, principalId(principal));
            const shouted = (await tiny(app).read(
              args.project_id,
              args.note_id,
              outcome.position,
            ))!;
            return {
              result: { notes: outcome.result.notes, shouted },
              project_id: args.project_id,
              envelope: { note_id: args.note_id },
            };
          },
        }),
      ],
    },
  ],
});
