import { z } from 'zod';
import {
  ClaimRole,
  ClaimScope,
  EpistemicStatus,
  ExplicitBasis,
  Facet,
  FeedbackClass,
  IntentMode,
  SourceKind,
} from '../../events/intent/index.js';

/** The intent surface's argument and result shapes (contracts/intent.md). */

export const ProjectRoot = z
  .string()
  .min(1)
  .max(4096)
  .optional()
  .describe('absolute project directory');
export const TaskId = z.uuid().describe('from intent_start_task');
export const RequestId = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe('retry key: a repeat answers once');
export const ClaimId = z.string().min(1).max(128);

/** Statements and excerpts are redacted and capped (500 / 160) after this input bound. */
const Text = (max: number, what: string) => z.string().trim().min(1).max(max).describe(what);
export const Statement = Text(
  20_000,
  'one atomic statement on one line (kept to 500 characters, secrets redacted)',
);

const sourceShape = {
  event_id: z.string().min(1).max(200).optional().describe('host event id'),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  excerpt: z.string().max(2000).optional().describe('kept to 160 characters'),
};
/** A source of the given kinds; it names an event_id or a sha256. */
export const SourceOf = <K extends readonly [SourceKind, ...SourceKind[]]>(kinds: K) =>
  z
    .strictObject({ kind: z.enum(kinds), ...sourceShape })
    .refine((s) => s.event_id !== undefined || s.sha256 !== undefined, {
      message: 'a source names an event_id or a sha256',
    });

export const AnySource = SourceOf(
  SourceKind.options.filter((k) => k !== 'explicit_import') as [SourceKind, ...SourceKind[]],
);

export const Facets = z.array(Facet).min(1).max(9);
export const claimFields = {
  role: ClaimRole.optional().describe('default by kind'),
  scope: ClaimScope.optional().describe('default task'),
  facets: z.array(Facet).max(9).optional(),
};

/** A claim of any kind, for a task start or a replacement. */
export const ClaimSpec = z.strictObject({
  epistemic_status: EpistemicStatus,
  statement: Statement,
  source_ref: AnySource,
  basis: ExplicitBasis.optional().describe(
    'explicit claims: direct_statement or confirmed_candidate',
  ),
  confidence: z.number().min(0).max(1).optional().describe('inferred claims only, 0..1'),
  affects_decision: Text(2000, 'unknowns: the decision it affects').optional(),
  disputes: z.array(ClaimId).max(50).optional().describe('disputes: the claims in disagreement'),
  feedback_class: FeedbackClass.optional().describe('evidence of result feedback: its class'),
  ...claimFields,
});

export const ClaimResult = z.object({
  claim_id: z.string(),
  epistemic_status: EpistemicStatus,
  scope: ClaimScope,
  candidate: z.boolean().describe('a long-term claim waiting for three tasks plus confirmation'),
  supersedes: z.array(z.string()),
  redactions: z.number().int().describe('secret-shaped spans replaced by [REDACTED:kind]'),
  truncated: z.boolean().describe('a text was cut to its cap'),
  task_ids: z
    .array(z.string())
    .optional()
    .describe('long-term candidates: the distinct tasks it recurred in so far'),
  candidate_type: z.literal('long_term_preference').optional(),
  promoted_from: z.string().optional().describe('a confirmation: the candidate it confirmed'),
});

/** Long-term inferences: what makes two candidates in different tasks one preference. */
export const SignalKey = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe('long-term inferences: an opaque key naming the preference across tasks');

export const OffStatus = z.object({
  mode: z.literal('off'),
  accepted: z.literal(false),
  message: z.string(),
});

export const ClaimLine = z.object({
  claim_id: z.string(),
  statement: z.string(),
  epistemic_status: EpistemicStatus,
  role: ClaimRole,
  scope: ClaimScope,
  source_kind: SourceKind,
  confidence: z.number().nullable(),
  facets: z.array(Facet),
  affects_decision: z.string().nullable(),
  feedback_class: FeedbackClass.optional(),
  supersedes: z.array(z.string()),
  imported: z.boolean(),
  valid_from: z.string(),
});

export type ClaimLineOf = z.infer<typeof ClaimLine>;

export const Snapshot = z.object({
  project_id: z.string(),
  task_id: z.string(),
  mode: IntentMode,
  active_claims: z.number().int(),
  current: z.array(ClaimLine),
  unknowns: z.array(ClaimLine),
  disputes: z.array(
    ClaimLine.extend({
      disputed_claims: z.array(
        z.object({ claim_id: z.string(), statement: z.string().nullable(), life: z.string() }),
      ),
    }),
  ),
  unresolved_disputes: z.number().int(),
  open_unknowns: z.number().int(),
  stale_warnings: z.array(z.object({ claim_id: z.string(), reason: z.string() })),
  candidate_count: z.number().int(),
  incomplete_external_history: z.boolean(),
  omitted: z.object({ current: z.number(), unknowns: z.number(), disputes: z.number() }),
  truncated: z.boolean(),
});

export const Storage = z.object({
  data_dir: z.string().describe('where the ledger lives'),
  root_source: z.enum(['sandbox_meta', 'project_root', 'client_root']),
});

export { IntentMode };
