import { isDomainError } from '../../src/commands/errors.js';
import type { IntentCode } from '../../src/commands/intent/errors.js';
import { claimSubject } from '../../src/commands/intent/task.js';
import type { IntentEvent } from '../../src/commands/intent/task-state.js';
import { taskSubject, type ClaimBody } from '../../src/events/intent/index.js';

/** One project, one task, one clock for every intent decider test. */
export const P = 'proj-1';
export const T = 'task-1';
export const NOW = '2026-12-01T10:00:00.000Z';
export const LATER = '2026-12-01T11:00:00.000Z';

const userSource = { kind: 'user_event' as const, event_id: 'u-1', sha256: null, excerpt: null };

/** A claim of each status, legal as given; override what a case is about. */
export const claim = (
  claim_id: string,
  status: ClaimBody['epistemic_status'],
  over: Partial<ClaimBody> = {},
): ClaimBody => ({
  claim_id,
  statement: `statement of ${claim_id}`,
  role: 'goal',
  epistemic_status: status,
  source_ref:
    status === 'explicit'
      ? userSource
      : status === 'evidence'
        ? { kind: 'tool_result', event_id: null, sha256: 'ab'.repeat(32), excerpt: 'tests pass' }
        : { kind: 'agent_turn', event_id: 'turn-1', sha256: null, excerpt: null },
  basis: status === 'explicit' ? 'direct_statement' : null,
  scope: 'task',
  confidence: status === 'inferred' ? 0.7 : null,
  facets: [],
  affects_decision: status === 'unknown' ? 'which database to use' : null,
  disputes: [],
  supersedes: [],
  candidate: false,
  import_id: null,
  valid_from: NOW,
  ...over,
});

export const started: IntentEvent = {
  type: 'intent.task_started',
  data: { project_id: P, task_id: T, host_session_hash: null, started_at: NOW },
  metadata: { seal: taskSubject(T) },
};

/** The start of the task, bound to a host session (its hash). */
export const startedWith = (host_session_hash: string): IntentEvent => ({
  type: 'intent.task_started',
  data: { project_id: P, task_id: T, host_session_hash, started_at: NOW },
  metadata: { seal: taskSubject(T) },
});

export const added = (body: ClaimBody): IntentEvent => ({
  type: 'intent.claim_added',
  data: { project_id: P, task_id: T, claim: body },
  metadata: { seal: claimSubject(body.claim_id) },
});

/** `thenThrows` check: an intent error with this contract code. */
export const withCode =
  (code: IntentCode) =>
  (error: Error): boolean =>
    isDomainError(error) && error.code === (code as string) && error.details.code === code;
