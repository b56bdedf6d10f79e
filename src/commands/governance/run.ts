import type { Command, Decider, Event } from '@event-driven-io/emmett';
import type { EventLog } from '../../events/index.js';
import { runCommand, type CommandOutcome } from '../handler.js';
import type { Principal } from '../principal.js';
import type { Caller } from './roles.js';

/** A governance mutation's call: who calls, and the contract's required idempotency key. */
export type GovernanceCall = { principal: Principal; idempotencyKey: string };

export type GovernanceRun<State, C extends Command, E extends Event, R> = {
  decider: Decider<State, C, E>;
  stream: string;
  projectId: string;
  caller: Caller;
  command: C;
  /** the tool name and its arguments: what "same input" means for the idempotency key */
  operation: string;
  args: Record<string, unknown>;
  /** the work package id where there is one (contracts/governance.md's example) */
  correlationId: string | null;
  respond: (state: State, events: E[]) => R;
};

/** Every governance mutation goes through here: one stream, the caller's role, the key. */
export const runGovernance = <State, C extends Command, E extends Event, R>(
  log: EventLog,
  call: GovernanceCall,
  run: GovernanceRun<State, C, E, R>,
): Promise<CommandOutcome<R>> =>
  runCommand(log, {
    decider: run.decider,
    stream: run.stream,
    command: run.command,
    meta: {
      actor_id: run.caller.actor_id,
      actor_role: run.caller.role,
      correlation_id: run.correlationId,
      causation_event_id: null,
    },
    idempotency: {
      key: call.idempotencyKey,
      projectId: run.projectId,
      callerId: run.caller.actor_id,
      operation: run.operation,
      args: run.args,
    },
    respond: run.respond,
  });
