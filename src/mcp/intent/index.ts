import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { SANDBOX_META } from '../../app/project/host-root.js';
import { withEnvelopeStyle } from '../flat-envelope.js';
import type { Surface } from '../tool.js';
import { claimTools } from './claims.js';
import { ioTools } from './io.js';
import { statusTool, taskTools } from './task.js';

/** The bundled Skill, served as a resource for hosts that cannot read the plugin cache. */
const SKILL = new URL('../../../skills/intent/SKILL.md', import.meta.url);

/**
 * The intent surface (contracts/intent.md): 15 tools over intent claims of a coding task, and
 * one static resource, the bundled `intent` Skill. Every tool resolves the project root from
 * the host first; `task_id` rides in every envelope.
 */
export const intentSurface: Surface = {
  name: 'intent',
  title: 'Intent claims of a coding task',
  instructions:
    'intent: record what the user wants as claims with provenance. Start with intent_start_task, ' +
    'then add claims by kind: explicit (user said it), inference (with confidence), evidence, ' +
    'unknown, dispute. Read with intent_get_snapshot. Never record tool output as explicit. ' +
    'project_root is optional where the host names the project (Codex sandbox metadata, or ' +
    'exactly one MCP client root); otherwise PROJECT_ROOT_REQUIRED asks for it. A statement is ' +
    'one line: a multi-line or 4,000+ character text is refused as a prompt or transcript. ' +
    'Every answer carries task_id; a failure is ok:false with error {code, message, details}, ' +
    'code one of the contract’s (INVALID_ARGUMENT, PROJECT_ROOT_REQUIRED, TASK_NOT_FOUND, …).',
  tiers: ['all'],
  defaultTier: 'all',
  // the text block is the envelope's JSON, its shape unchanged (flat-envelope.ts)
  tools: withEnvelopeStyle('json', [...taskTools, ...claimTools, ...ioTools, statusTool]),
  resources: [
    {
      name: 'intent-skill',
      uri: 'intent-loop://skill/intent',
      title: 'The intent Skill',
      description: 'The bundled skills/intent/SKILL.md: how to use the intent tools. No task data.',
      mimeType: 'text/markdown',
      read: () => readFile(SKILL, 'utf8'),
    },
  ],
  experimental: { [SANDBOX_META]: {} },
  envelope: { task_id: z.string().nullable().describe('the task the call acted on, if any') },
  envelopeOf: (args) => {
    const task = (args as { task_id?: unknown } | undefined)?.task_id;
    return { task_id: typeof task === 'string' ? task : null };
  },
  // a storage fault (a full or read-only disk: `details.cause` ENOSPC, EROFS…) is no lock that
  // timed out: it keeps the kernel's `unavailable`, as every surface answers it (hardening.md)
  errorCodeOf: (error) =>
    error.code === 'unavailable' && typeof error.details.cause === 'string'
      ? 'unavailable'
      : undefined,
  errorCodes: {
    invalid_argument: 'INVALID_ARGUMENT',
    internal: 'INTERNAL_ERROR',
    unavailable: 'LOCK_TIMEOUT',
    conflict: 'REQUEST_ID_REUSED',
    not_found: 'NOT_FOUND',
    forbidden: 'FORBIDDEN',
    invalid_state: 'INVALID_STATE',
    not_configured: 'NOT_CONFIGURED',
  },
};
