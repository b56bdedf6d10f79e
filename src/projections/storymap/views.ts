import type {
  Criterion,
  DecisionCategory,
  Effort,
  StoryPriority,
  StoryStatus,
  VisionKey,
} from '../../events/storymap/index.js';
import type { BuildRecord, CriterionResult } from '../../events/storymap/build-record.js';

/** The map as get_vision, list_projects, get_context and the releases tools read it. */
export type MapView = {
  project_id: string;
  map_id: string;
  name: string;
  idea: string;
  key_prefix: string;
  client: string | null;
  created_by: string;
  created_at: string;
  archived: boolean;
  archived_at: string | null;
  vision: Partial<Record<VisionKey, { text: string; answered_at: string }>>;
  activities: { activity_id: string; name: string; position: number }[];
  releases: { release_order: number; label: string }[];
  decisions: DecisionView[];
  last_activity_at: string;
  /** the stories each evidence flag is set on (StoryView's), so get_status reads only those */
  flagged: Record<EvidenceFlag, string[]>;
};

export type EvidenceFlag = 'ci_regressed' | 'tests_predate_code';

export type DecisionView = {
  decision_id: string;
  title: string;
  description: string;
  category: DecisionCategory;
  story_id: string | null;
  logged_by: string;
  logged_at: string;
  amended_at: string | null;
  retracted: boolean;
  retracted_at: string | null;
  retraction_reason: string | null;
};

/** A criterion as get_story shows it, with its latest reported result. */
export type CriterionView = Omit<Criterion, 'criterion_id'> & {
  id: string;
  last_result: CriterionResult | null;
  test_count: number;
  /** the story is done or approved and a linked test now fails in CI */
  ci_regressed: boolean;
};

export type StatusChange = {
  from: StoryStatus;
  to: StoryStatus;
  by: string;
  via: 'mcp' | 'founder_cli';
  at: string;
};

/** One story as get_story shows it. */
export type StoryView = {
  id: string;
  project_id: string;
  key: string;
  title: string;
  status: StoryStatus;
  activity: string;
  user_story: { as_a: string | null; i_want: string | null; so_that: string | null };
  priority: StoryPriority;
  effort: Effort;
  release: number;
  sort_order: number | null;
  build_sequence: number | null;
  depends_on: string[];
  version: number;
  acceptance_criteria: CriterionView[];
  notes: string | null;
  implementation_summary: string | null;
  implemented_files: string[];
  implemented_at: string | null;
  cancelled_at: string | null;
  cancellation_reason: string | null;
  spec_changed_since_built: boolean;
  /** done or approved, and some criterion's linked test now fails in CI */
  ci_regressed: boolean;
  /** some criterion's newest passing evidence is over an hour older than the latest code change */
  tests_predate_code: boolean;
  created_at: string;
  updated_at: string;
  record: {
    created_by: string;
    marked_ready_by: string | null;
    marked_ready_at: string | null;
    built_by: string | null;
    built_at: string | null;
    approved_by: string | null;
    approved_at: string | null;
  };
  history: StatusChange[];
  /** claim, plan, tests, results, blockers, hand-offs, pull request (the building loop) */
  build: BuildRecord;
};
