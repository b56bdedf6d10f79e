import type { Snapshot } from './snapshot-view.js';

/**
 * A snapshot as a few lines of plain text (intent-loop's `compact_text`): what an agent reads
 * back into its context. It says what the snapshot says, no more: each claim keeps its status,
 * unknowns their decision, disputes stay unresolved, and what the cap left out is counted.
 */
export const compactText = (snap: Snapshot): string => {
  const lines = [
    `Task ${snap.task_id} (${snap.mode}): ${snap.active_claims} active claims, ` +
      `${snap.open_unknowns} unknowns, ${snap.unresolved_disputes} unresolved disputes.`,
    ...snap.current.map((c) => `- [${c.epistemic_status}] ${c.statement}`),
    ...snap.unknowns.map(
      (c) =>
        `- [unknown] ${c.statement}` +
        (c.affects_decision === null ? '' : ` (affects: ${c.affects_decision})`),
    ),
    ...snap.disputes.map((c) => `- [dispute] ${c.statement}`),
  ];
  if (snap.truncated) lines.push(`(${JSON.stringify(snap.omitted)} omitted to fit the cap)`);
  if (snap.incomplete_external_history)
    lines.push('(includes imported, incomplete external history)');
  return lines.join('\n');
};
