import type { DeskEvent } from '../../commands/missions/desk-events.js';
import type { GatePassed } from '../../events/missions/index.js';

/**
 * HAI-MCP's echo of a passed owner gate (docs/OWNER_GATE.md, "Passed"): the normal result plus
 * `owner_gate: {gate, challenge_id, audit_event_id}`. Our audit record is the log itself, so
 * the "audit event" is named by the log position of the change.
 */
export type GateEcho = {
  gate: GatePassed['mode'];
  challenge_id: string | null;
  audit_event_id: string;
};

/** How the gate passed, as the gated change's own event records it (undefined: it held). */
export const gatePassedOf = (events: readonly DeskEvent[]): GatePassed | undefined => {
  for (const e of events) {
    if (e.type === 'next_step.accepted' || e.type === 'mission.recontracted') return e.data.gate;
    if (e.type === 'mission.closed' && e.data.gate) return e.data.gate;
  }
  return undefined;
};

export const withGateEcho = <R extends object>(
  value: R,
  passed: GatePassed | undefined,
  position: number,
): R & { owner_gate?: GateEcho } =>
  passed
    ? {
        ...value,
        owner_gate: {
          gate: passed.mode,
          challenge_id: passed.challenge_id,
          audit_event_id: `position:${position}`,
        },
      }
    : value;
