import type { ContractBody } from '../../events/missions/index.js';
import { newId } from '../../events/ids.js';
import type { Caller, MissionsCore, ProjectRef } from './index.js';
import {
  confinePaths,
  criteriaOf,
  inputIssues,
  requireReviewed,
  type CriterionArg,
} from './contract-input.js';
import { missionView } from './mission-view.js';

/** Opening a mission: the contract as callers send it, checked, confined, made version 1. */

export type ContractInput = Omit<ContractBody, 'constraints' | 'non_goals' | 'done_criteria'> & {
  done_criteria: CriterionArg[];
  non_goals?: string[];
  constraints?: Partial<ContractBody['constraints']>;
};

const DEFAULT_MAX_SESSIONS = 1;

export const openOps = (core: MissionsCore) => {
  const { run, resolve } = core;

  /** a contract naming no project is the caller's home project (missions/resolve.ts) */
  const refOfContract = (c: ContractInput['constraints']): ProjectRef => {
    if (c?.project_path) return { project_path: c.project_path };
    if (c?.project_id) return { project_id: c.project_id };
    return {};
  };

  const openMission = async (input: ContractInput, caller: Caller) => {
    const project = await resolve(refOfContract(input.constraints), caller);
    const c = input.constraints ?? {};
    const asked: ContractBody = {
      objective: input.objective,
      artifact: input.artifact,
      done_criteria: criteriaOf(input.done_criteria),
      non_goals: input.non_goals ?? [],
      owner: input.owner,
      constraints: {
        // a project named by id stays logical (a lease needs a device with its mount)
        project_path: c.project_id && !c.project_path ? null : project.root,
        project_id: c.project_id && !c.project_path ? project.project_id : null,
        allowed_paths: c.allowed_paths ?? [],
        capabilities: c.capabilities ?? [],
        max_parallel_sessions: c.max_parallel_sessions ?? DEFAULT_MAX_SESSIONS,
        time_limit_hours: c.time_limit_hours ?? null,
      },
    };
    requireReviewed(
      inputIssues(project.root, {
        done_criteria: input.done_criteria,
        allowed_paths: asked.constraints.allowed_paths,
      }),
      asked,
    );
    const allowed = await confinePaths(project.root, asked.constraints.allowed_paths);
    const contract: ContractBody = {
      ...asked,
      constraints: { ...asked.constraints, allowed_paths: allowed },
    };
    const mission_id = newId('mission');
    const data = { project_id: project.project_id, now: core.now(), mission_id, contract };
    const out = await run(project, { type: 'OpenMission', data }, caller, (s) =>
      // HAI-MCP's word for a contract that passed review (a refusal says review_required)
      ({ ...missionView(s, mission_id), validation: 'validated' as const }),
    );
    return { project, ...out };
  };

  return { openMission };
};
