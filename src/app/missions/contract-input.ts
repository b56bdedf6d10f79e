import {
  contractIssues,
  reviewDetails,
  type ContractChanges,
  type ContractIssue,
} from '../../commands/missions/contract.js';
import { missionsError } from '../../commands/missions/errors.js';
import type { ContractBody } from '../../events/missions/index.js';
import { confine, unsafePrefix } from './paths.js';

/**
 * A contract as callers send it, made into the body the log keeps. HAI-MCP's clients send more
 * than the body holds (criteria with `verifiable` and `evidence`, the constraints a mission
 * returned, sent back in a recontract); what the body does not keep is checked, then dropped,
 * so the contract hash is what it would be without it.
 */

export type CriterionArg = {
  id?: string;
  description?: string;
  verifiable?: boolean;
  evidence?: string;
};

/** The constraints a recontract may carry: the returned ones, sent back as they were. */
export type ConstraintChanges = Partial<ContractBody['constraints']> & {
  owner?: string;
  device_id?: string;
};

export type ChangesArg = Omit<ContractChanges, 'done_criteria' | 'constraints'> & {
  done_criteria?: CriterionArg[];
  constraints?: ConstraintChanges;
};

/** HAI-MCP's default id of a criterion sent without one: `dc-<n>`, n its place from 1. */
const idOf = (c: CriterionArg, i: number) => c.id ?? `dc-${i + 1}`;

/** The criteria the body keeps: id (or its default) and description (blank: review_required). */
export const criteriaOf = (criteria: readonly CriterionArg[]) =>
  criteria.map((c, i) => ({ id: idOf(c, i), description: c.description ?? '' }));

/** What the body cannot show: a criterion said to be unverifiable, an unsafe allowed path. */
export const inputIssues = (
  root: string | null,
  input: { done_criteria?: readonly CriterionArg[]; allowed_paths?: readonly string[] },
): ContractIssue[] => [
  ...(input.done_criteria ?? [])
    .map((c, i) => ({ ...c, id: idOf(c, i) }))
    .filter((c) => c.verifiable === false)
    .map((c) => ({
      field: `done_criteria.${c.id}`,
      code: 'criterion_not_verifiable',
      message: `done_criteria[${c.id}] is not verifiable`,
    })),
  ...(input.allowed_paths ?? [])
    .filter((p) => unsafePrefix(root, p))
    .map((p) => ({
      field: 'constraints.allowed_paths',
      code: 'allowed_path_unsafe',
      // the log and the answer keep text any store takes: a NUL byte is written `\0`
      message: `allowed_paths entry must be a safe relative prefix: ${p.replace(/\0/g, '\\0')}`,
    })),
];

/** Refuses with review_required when the input has issues, listing the body's too. */
export const requireReviewed = (issues: readonly ContractIssue[], body?: ContractBody): void => {
  if (issues.length === 0) return;
  const all = [...issues, ...(body ? contractIssues(body) : [])];
  throw missionsError(
    'review_required',
    `the contract needs review: ${all.map((i) => i.message).join('; ')}`,
    reviewDetails(all),
  );
};

/** allowed_paths as relative, confined prefixes ('' when the root itself); a link out refused. */
export const confinePaths = async (root: string | null, paths: readonly string[]) => {
  if (root === null) return [...paths];
  return Promise.all(paths.map(async (p) => (await confine(root, p)).relative));
};

/**
 * A recontract's changes as the decider takes them. The project is not changed by a recontract:
 * the same `project_path` or `project_id` sent back is no change, another one is refused. The
 * owner is the contract's top-level field (`constraints.owner` is ignored), and a device is the
 * lease's, not the contract's.
 */
export const recontractChanges = (current: ContractBody | undefined, changes: ChangesArg) => {
  const { done_criteria, constraints, ...top } = changes;
  const {
    owner: _owner,
    device_id: _device,
    project_path,
    project_id,
    ...limits
  } = constraints ?? {};
  for (const [field, value] of [
    ['project_path', project_path],
    ['project_id', project_id],
  ] as const)
    if (value !== undefined && current && value !== current.constraints[field])
      throw missionsError('invalid_args', `${field} cannot be changed via recontract`, { field });
  return {
    ...top,
    ...(done_criteria ? { done_criteria: criteriaOf(done_criteria) } : {}),
    ...(constraints ? { constraints: limits } : {}),
  } satisfies ContractChanges;
};
