import type {
  Closure,
  ContractBody,
  EvidenceItem,
  LaneStatus,
} from '../../events/missions/index.js';
import type { ContractChanges } from './contract.js';
import type { LeaseTerms } from './desk-state.js';
import type { GateInput } from './owner-gate.js';
import type { LearningCommands } from './learning.js';

/**
 * The commands of a project's missions desk. Facts a decider cannot know come in the command:
 * `now`, fresh ids, whether a device has a mount, which evidence files exist.
 */
type At = { project_id: string; now: string };

export type DeskCommand =
  | { type: 'OpenMission'; data: At & { mission_id: string; contract: ContractBody } }
  | {
      type: 'Recontract';
      data: At & {
        mission_id: string;
        contract_version: number;
        changes: ContractChanges;
        reason: string;
        mode: 'normal' | 'break_glass';
        break_glass_marker: boolean;
        gate: GateInput;
      };
    }
  | {
      type: 'CloseMission';
      data: At & {
        mission_id: string;
        contract_version: number;
        closure: Closure;
        outcome_summary: string;
        /** evidence whose paths the service found inside the project */
        evidence: Record<string, EvidenceItem>;
        gate: GateInput | null;
      };
    }
  | {
      type: 'AuthorizeSession';
      data: At &
        LeaseTerms & {
          session_id: string;
          duration_minutes: number;
          capabilities: string[];
          device_id: string | null;
          harness_id: string | null;
          /** whether `device_id` has a mount of this project (null: no device given) */
          device_mounted: boolean | null;
        };
    }
  | { type: 'ProposeNextStep'; data: At & { content: string } }
  | { type: 'AcceptNextStep'; data: At & { content: string | null; gate: GateInput } }
  | {
      type: 'SetFocus';
      data: { project_id: string; focus_id: string; label: string | null; status: LaneStatus };
    }
  | { type: 'Park'; data: At & { item_id: string; text: string; tags: string[] } }
  | {
      type: 'ParkItem';
      data: At & {
        item_id: string;
        mission_id: string;
        idea: string;
        origin_session_id: string;
        trigger_event: string;
        rationale: string;
      };
    }
  | { type: 'Intake'; data: At & { intake_id: string; raw: string } }
  | {
      type: 'Distill';
      data: At & {
        intake_id: string;
        decision: string;
        next_step: string;
        parklist: string[];
        /** one fresh id per parklist entry */
        item_ids: string[];
      };
    }
  | { type: 'Checkpoint'; data: At & { checkpoint_id: string; note: string | null } }
  | {
      type: 'Stop';
      data: At & {
        day: string;
        loop_closed: boolean;
        clearer: string;
        agency_gained: string;
        manual_practice: string[];
      };
    }
  | { type: 'StartLearning'; data: LearningCommands['StartLearning'] }
  | { type: 'CompleteLearning'; data: LearningCommands['CompleteLearning'] }
  | { type: 'AbandonLearning'; data: LearningCommands['AbandonLearning'] };

export type DeskCommandOf<T extends DeskCommand['type']> = Extract<
  DeskCommand,
  { type: T }
>['data'];
