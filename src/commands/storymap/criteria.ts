import {
  StoryPriority,
  VerificationMethod,
  type Criterion,
  type Verification,
} from '../../events/storymap/index.js';
import { invalidArgument } from '../errors.js';

/** A criterion as the caller gave it, normalised; the id comes when it is written. */
export type CriterionInput = Omit<Criterion, 'criterion_id'>;

/** One bad field: where it is and what it accepts (contracts/storymap.md, "Criterion input"). */
export type InputProblem = { field: string; accepts: string };

// A criterion read back from get_story can be passed straight back: its read-only fields are
// accepted and ignored.
const READ_BACK = new Set(['id', 'criterion_id', 'last_result', 'test_count', 'ci_regressed']);
const FIELDS = new Set(['text', 'priority', 'given', 'when', 'then', 'verification']);
const VERIFICATION_TEXT = ['command', 'check_prompt', 'expected'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const optionalText = (v: unknown, field: string, problems: InputProblem[]): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  problems.push({ field, accepts: 'a string' });
  return null;
};

const parseVerification = (
  v: unknown,
  field: string,
  problems: InputProblem[],
): Verification | null => {
  if (v === undefined || v === null) return null;
  if (!isRecord(v)) {
    problems.push({
      field,
      accepts: 'an object with method and optional command, check_prompt, expected',
    });
    return null;
  }
  const method = VerificationMethod.safeParse(v.method);
  if (!method.success)
    problems.push({
      field: `${field}.method`,
      accepts: 'executable, agent_self_check, visual_render or founder_confirm',
    });
  for (const key of Object.keys(v))
    if (key !== 'method' && !(VERIFICATION_TEXT as readonly string[]).includes(key))
      problems.push({ field: `${field}.${key}`, accepts: 'nothing: not a verification field' });
  const [command, check_prompt, expected] = VERIFICATION_TEXT.map((k) =>
    optionalText(v[k], `${field}.${k}`, problems),
  );
  if (!method.success) return null;
  return {
    method: method.data,
    command: command ?? null,
    check_prompt: check_prompt ?? null,
    expected: expected ?? null,
  };
};

const parseObject = (
  v: Record<string, unknown>,
  path: string,
  problems: InputProblem[],
): CriterionInput => {
  for (const key of Object.keys(v))
    if (!FIELDS.has(key) && !READ_BACK.has(key))
      problems.push({ field: `${path}.${key}`, accepts: 'nothing: not a criterion field' });
  const text = typeof v.text === 'string' ? v.text.trim() : '';
  if (!text) problems.push({ field: `${path}.text`, accepts: 'a non-empty string (required)' });
  const priority = v.priority === undefined ? 'should' : StoryPriority.safeParse(v.priority).data;
  if (!priority) problems.push({ field: `${path}.priority`, accepts: 'must, should or could' });
  return {
    text,
    priority: priority ?? 'should',
    given: optionalText(v.given, `${path}.given`, problems),
    when: optionalText(v.when, `${path}.when`, problems),
    then: optionalText(v.then, `${path}.then`, problems),
    verification: parseVerification(v.verification, `${path}.verification`, problems),
  };
};

const parseOne = (item: unknown, path: string, problems: InputProblem[]): CriterionInput => {
  if (typeof item === 'string') {
    const text = item.trim();
    if (!text) problems.push({ field: path, accepts: 'a non-empty string or a criterion object' });
    return { text, priority: 'should', given: null, when: null, then: null, verification: null };
  }
  if (isRecord(item)) return parseObject(item, path, problems);
  problems.push({ field: path, accepts: 'a string or an object with text' });
  return { text: '', priority: 'should', given: null, when: null, then: null, verification: null };
};

/** Parses a list of criteria, adding every bad field to `problems` (nothing thrown here). */
export const parseCriteria = (
  items: readonly unknown[],
  path: string,
  problems: InputProblem[],
): CriterionInput[] => items.map((item, i) => parseOne(item, `${path}[${i}]`, problems));

/** Refuses a batch with every bad field at once; nothing has been written. */
export const refuseProblems = (problems: readonly InputProblem[]): void => {
  if (problems.length === 0) return;
  const list = problems.map((p) => `${p.field}: expected ${p.accepts}`).join('; ');
  throw invalidArgument(
    `${problems.length} invalid field${problems.length === 1 ? '' : 's'}, nothing was written: ${list}`,
    { problems },
  );
};

/** Parses one list and refuses it when anything is wrong. */
export const parseCriteriaOrRefuse = (items: readonly unknown[], path = 'criteria') => {
  const problems: InputProblem[] = [];
  const parsed = parseCriteria(items, path, problems);
  refuseProblems(problems);
  return parsed;
};

export const withIds = (inputs: readonly CriterionInput[], newId: () => string): Criterion[] =>
  inputs.map((c) => ({ criterion_id: newId(), ...c }));

/** Two criteria are worded the same when their words match, ignoring case and spacing. */
export const sameWording = (a: string, b: string): boolean =>
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();
