import type { Effort, StoryPriority } from '../../events/storymap/index.js';

/** What the score reads of a story: its own words, its criteria, its place in the graph. */
export type ComplexityInput = {
  key: string;
  title: string;
  effort: Effort;
  text: string;
  criteria: readonly { text: string; priority: StoryPriority }[];
  depends_on: number;
  dependents: number;
};

export type Complexity = {
  score: number;
  reasoning: string[];
  risks: string[];
  suggested_effort: Effort;
  current_effort: Effort;
};

const EFFORT_BASE: Record<Effort, number> = { XS: 1, S: 2, M: 3, L: 5, XL: 7 };

/** Areas that make a story harder than its size says, and the risk each brings. */
const AREAS: readonly { name: string; pattern: RegExp; risk: string }[] = [
  {
    name: 'authentication or permissions',
    pattern: /\b(auth\w*|log ?in|password|permission\w*|role\w*|oauth|sso)\b/i,
    risk: 'security: access mistakes leak data',
  },
  {
    name: 'payments',
    pattern: /\b(pay\w*|billing|checkout|invoice\w*|refund\w*|stripe)\b/i,
    risk: 'money moves: failures must be idempotent and audited',
  },
  {
    name: 'data migration',
    pattern: /\b(migrat\w*|backfill\w*|schema change)\b/i,
    risk: 'existing data can be lost or corrupted',
  },
  {
    name: 'concurrency or sync',
    pattern: /\b(concurren\w*|real-?time|sync\w*|offline|race|conflict\w*|lock\w*)\b/i,
    risk: 'timing bugs that tests rarely catch',
  },
  {
    name: 'external services',
    pattern: /\b(api|integrat\w*|third[- ]party|webhook\w*|email\w*|sms|notification\w*)\b/i,
    risk: 'depends on a service outside the codebase',
  },
  {
    name: 'files and media',
    pattern: /\b(upload\w*|image\w*|video\w*|photo\w*|pdf|file\w*)\b/i,
    risk: 'large inputs, formats and storage limits',
  },
  {
    name: 'privacy or encryption',
    pattern: /\b(encrypt\w*|gdpr|privacy|personal data|pii)\b/i,
    risk: 'regulatory exposure',
  },
];

export const effortFor = (score: number): Effort =>
  score <= 2 ? 'XS' : score <= 3 ? 'S' : score <= 5 ? 'M' : score <= 7 ? 'L' : 'XL';

/**
 * A deterministic complexity score from 1 to 10 that explains itself: the stated effort is the
 * base, then criteria, dependencies and risky areas add to it. No model and nothing saved: the
 * same story always scores the same.
 */
export const scoreComplexity = (s: ComplexityInput): Complexity => {
  const reasoning: string[] = [];
  const risks: string[] = [];
  let score = EFFORT_BASE[s.effort];
  reasoning.push(`effort ${s.effort}: base ${score}`);
  const add = (points: number, why: string) => {
    score += points;
    reasoning.push(`${points > 0 ? '+' : ''}${points} ${why}`);
  };
  const musts = s.criteria.filter((c) => c.priority === 'must').length;
  if (s.criteria.length === 0) {
    add(1, 'no acceptance criteria: the scope is unknown');
    risks.push('no acceptance criteria: "done" is undefined; add criteria before building');
  } else if (s.criteria.length > 8) add(2, `${s.criteria.length} criteria`);
  else if (s.criteria.length > 4) add(1, `${s.criteria.length} criteria`);
  if (musts > 3) add(1, `${musts} must criteria`);
  if (s.depends_on >= 2) add(1, `depends on ${s.depends_on} stories`);
  if (s.dependents >= 2) {
    add(1, `${s.dependents} stories depend on it`);
    risks.push(`${s.dependents} stories wait on it: a slip delays them all`);
  }
  const words = [s.title, s.text, ...s.criteria.map((c) => c.text)].join('\n');
  const areas = AREAS.filter((a) => a.pattern.test(words));
  if (areas.length > 0)
    add(Math.min(3, areas.length), `touches ${areas.map((a) => a.name).join(', ')}`);
  for (const a of areas) risks.push(`${a.name}: ${a.risk}`);
  const clamped = Math.max(1, Math.min(10, score));
  if (clamped !== score) reasoning.push(`clamped to ${clamped}`);
  const suggested = effortFor(clamped);
  if (suggested !== s.effort)
    risks.push(`sized ${s.effort}, but the score suggests ${suggested}: re-estimate`);
  return {
    score: clamped,
    reasoning,
    risks,
    suggested_effort: suggested,
    current_effort: s.effort,
  };
};
