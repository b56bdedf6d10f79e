import { canonicalJson, sha256Hex } from '../../events/codec.js';
import type { ContractBody, FieldChange } from '../../events/missions/index.js';

/**
 * A mission contract: what makes it finite (an artifact, done criteria, a bounded objective),
 * its stable hash, and the field-level diff a recontract shows the owner.
 */

export type ContractIssue = { field: string; code: string; message: string };

/** Changes a recontract may ask for: any top-level field, constraints field by field. */
export type ContractChanges = Partial<Omit<ContractBody, 'constraints'>> & {
  constraints?: Partial<ContractBody['constraints']>;
};

const MAX_CRITERIA = 12;
// words that make an objective a wish instead of a finite target
const VAGUE = /\b(tbd|todo|etc|stuff|things|various|somehow|improve things)\b/i;
// HAI-MCP's placeholders: the whole objective is one of these
const PLACEHOLDER = [
  /^\s*an?\s+hai\s+arbeiten\s*$/i,
  /^\s*everything\s*$/i,
  /^\s*misc(ellaneous)?\s*$/i,
];

/**
 * Vague means no target at all: empty, a placeholder word, or only a placeholder. A short
 * objective is fine ("Prove completion"): the done criteria make a mission finite, not length.
 */
const objectiveIssues = (objective: string): ContractIssue[] => {
  if (objective.trim() === '')
    return [{ field: 'objective', code: 'objective_missing', message: 'objective is required' }];
  if (VAGUE.test(objective) || PLACEHOLDER.some((p) => p.test(objective)))
    return [
      {
        field: 'objective',
        code: 'objective_vague',
        message: 'objective is too broad to be verifiable',
      },
    ];
  return [];
};

const criteriaIssues = (body: ContractBody): ContractIssue[] => {
  const issues: ContractIssue[] = [];
  if (body.done_criteria.length === 0)
    issues.push({
      field: 'done_criteria',
      code: 'no_done_criteria',
      message: 'done_criteria must be a non-empty finite list',
    });
  if (body.done_criteria.length > MAX_CRITERIA)
    issues.push({
      field: 'done_criteria',
      code: 'too_many_criteria',
      message: `at most ${MAX_CRITERIA} done criteria; split the mission`,
    });
  const seen = new Set<string>();
  for (const c of body.done_criteria) {
    if (seen.has(c.id))
      issues.push({
        field: `done_criteria.${c.id}`,
        code: 'duplicate_criterion_id',
        message: `duplicate done_criteria id: ${c.id}`,
      });
    seen.add(c.id);
    if (c.description.trim() === '')
      issues.push({
        field: `done_criteria.${c.id}`,
        code: 'criterion_vague',
        message: `done_criteria[${c.id}] missing description`,
      });
  }
  return issues;
};

/** Everything that keeps a contract from being a valid finite contract; empty when it is one. */
export const contractIssues = (body: ContractBody): ContractIssue[] => [
  ...objectiveIssues(body.objective),
  ...(body.artifact.trim() === ''
    ? [{ field: 'artifact', code: 'artifact_missing', message: 'artifact is required' }]
    : []),
  ...criteriaIssues(body),
  ...(body.owner.trim() === ''
    ? [{ field: 'owner', code: 'owner_missing', message: 'owner is required' }]
    : []),
];

/**
 * The refusal of a contract that needs review: `issues` in HAI-MCP's words (strings its clients
 * search), `issue_details` with each one's field and code.
 */
export const reviewDetails = (issues: readonly ContractIssue[]) => ({
  status: 'review_required',
  validation: 'review_required',
  issues: issues.map((i) => i.message),
  issue_details: issues,
});

/** `sha256:` of the canonical JSON of the body: equal bodies, equal hashes, on every machine. */
export const contractHash = (body: ContractBody): string =>
  `sha256:${sha256Hex(canonicalJson(body))}`;

export const applyChanges = (body: ContractBody, changes: ContractChanges): ContractBody => {
  const { constraints, ...top } = changes;
  const defined = <T extends object>(o: T) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  return {
    ...body,
    ...defined(top),
    constraints: { ...body.constraints, ...defined(constraints ?? {}) },
  };
};

/** Field-level diff: top-level fields, and constraints field by field. */
export const contractDiff = (before: ContractBody, after: ContractBody): FieldChange[] => {
  const changes: FieldChange[] = [];
  const compare = (field: string, a: unknown, b: unknown) => {
    if (canonicalJson(a) !== canonicalJson(b)) changes.push({ field, before: a, after: b });
  };
  for (const key of ['objective', 'artifact', 'done_criteria', 'non_goals', 'owner'] as const)
    compare(key, before[key], after[key]);
  for (const key of Object.keys(after.constraints).sort() as (keyof ContractBody['constraints'])[])
    compare(`constraints.${key}`, before.constraints[key], after.constraints[key]);
  return changes;
};
