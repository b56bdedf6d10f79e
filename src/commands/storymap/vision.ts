import { VisionKey } from '../../events/storymap/index.js';
import { invalidArgument } from '../errors.js';
import type { MapState } from './map-state.js';
import { parseReport, reportUsers } from './report.js';

/** The five vision questions (get_vision's `questions`), in order. */
export const VISION_QUESTIONS: readonly { key: VisionKey; heading: string; hint: string }[] = [
  { key: 'users', heading: 'Who is it for?', hint: 'The people who will use it, specifically.' },
  { key: 'problem', heading: 'What problem does it solve?', hint: 'The pain, in their words.' },
  {
    key: 'switch',
    heading: 'Why would they switch?',
    hint: 'What they use today and why this is better.',
  },
  { key: 'first', heading: 'What comes first?', hint: 'The smallest thing worth shipping.' },
  { key: 'proof', heading: 'How will you know it works?', hint: 'The signal that proves it.' },
];

export type VisionInput = {
  answers?: Partial<Record<VisionKey, string>>;
  report?: string;
  confirm?: boolean;
};

export type VisionPlan = {
  /** the answers to write (empty when nothing changes or confirmation is needed) */
  answers: Partial<Record<VisionKey, string>>;
  source: 'answers' | 'report';
  requires_confirmation: boolean;
  would_overwrite: VisionKey[];
};

export const unanswered = (vision: MapState['vision']): VisionKey[] =>
  VisionKey.options.filter((k) => !vision[k]);

export const visionComplete = (vision: MapState['vision']): boolean =>
  unanswered(vision).length === 0;

const checkAnswers = (answers: Partial<Record<VisionKey, string>>): void => {
  const empty = Object.entries(answers)
    .filter(([, text]) => typeof text !== 'string' || text.trim() === '')
    .map(([key]) => `answers.${key}`);
  if (empty.length > 0)
    throw invalidArgument(`Each answer must be a non-empty string: ${empty.join(', ')}`, {
      fields: empty,
    });
};

/**
 * What set_vision would write. `answers` wins over the report for the keys it names; a
 * report-derived answer that would replace an answered key needs `confirm`.
 */
export const planVision = (input: VisionInput, vision: MapState['vision']): VisionPlan => {
  if (input.answers === undefined && input.report === undefined)
    throw invalidArgument('Pass answers, a report, or both.');
  const answers = { ...(input.answers ?? {}) };
  checkAnswers(answers);
  if (input.report === undefined)
    return { answers, source: 'answers', requires_confirmation: false, would_overwrite: [] };
  const users = reportUsers(parseReport(input.report));
  const derived: Partial<Record<VisionKey, string>> =
    users !== undefined && answers.users === undefined ? { users } : {};
  const would_overwrite = (Object.keys(derived) as VisionKey[]).filter(
    (k) => vision[k] && vision[k] !== derived[k],
  );
  if (would_overwrite.length > 0 && !input.confirm)
    return { answers: {}, source: 'report', requires_confirmation: true, would_overwrite };
  return {
    answers: { ...derived, ...answers },
    source: 'report',
    requires_confirmation: false,
    would_overwrite,
  };
};
