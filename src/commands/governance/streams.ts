import { streamName } from '../../events/index.js';

/**
 * Governance streams. The work package stream holds the package with its reviews, links and
 * gate; decisions, escalations and baselines each have their own (docs/governance.md says why).
 */
const named =
  (aggregateType: string) =>
  (projectId: string, aggregateId: string): string =>
    streamName({ aggregateType, projectId, aggregateId });

export const GovernanceStreams = {
  workPackage: named('work_package'),
  decision: named('decision'),
  escalation: named('escalation'),
  baseline: named('baseline'),
};
