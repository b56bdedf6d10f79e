import { randomUUID } from 'node:crypto';
import type { Principal } from '../../commands/principal.js';
import type { App } from '../app.js';
import { mapCommand } from './commands.js';

type In = { project_id: string };
type Category = 'architecture' | 'product' | 'technical' | 'trade-off';

/** The map's decision log: log, amend and retract (log_decision, amend_decision, retract_decision). */
export const decisionWrites = (app: App) => ({
  logDecision: (
    args: In & { title: string; description: string; category?: Category; story_id?: string },
    principal: Principal,
  ) => {
    const decision_id = randomUUID();
    const data = {
      decision_id,
      title: args.title,
      description: args.description,
      category: args.category ?? 'technical',
      story_ref: args.story_id ?? null,
    };
    return mapCommand(
      app,
      args,
      principal,
      (caller) => ({ type: 'LogDecision', data: { ...data, caller } }),
      () => ({ decision_id, title: data.title.trim() }),
    );
  },
  amendDecision: (
    args: In & { decision_id: string; title?: string; description?: string; category?: Category },
    principal: Principal,
  ) => {
    const { project_id: _p, decision_id, ...fields } = args;
    return mapCommand(
      app,
      args,
      principal,
      (caller) => ({
        type: 'AmendDecision',
        data: { decision_ref: decision_id, ...fields, caller },
      }),
      (s) => s,
    );
  },
  retractDecision: (args: In & { decision_id: string; reason?: string }, principal: Principal) =>
    mapCommand(
      app,
      args,
      principal,
      (caller) => ({
        type: 'RetractDecision',
        data: { decision_ref: args.decision_id, reason: args.reason ?? null, caller },
      }),
      (s) => s,
    ),
});
