import { withEnvelopeStyle } from '../flat-envelope.js';
import type { Surface } from '../tool.js';
import { withSet } from '../tool-sets.js';
import { dailyTools, deskTools } from './desk-tools.js';
import { learningTools } from './learning-tools.js';
import { checkActivityTool, missionStartTool, missionTools, proofTool } from './mission-tools.js';

/**
 * The missions surface (contracts/missions.md): the 18 tools of the gate matrix, the six
 * daily-loop tools and the three learning tools (27, as HAI-MCP v0.1). Errors carry the contract's codes; argument errors are `invalid_args`.
 * Two sets (`--surface missions:core`): `core` is the gate matrix's 18 tools, the contract's own
 * loop; `all` adds the daily loop's names and the learning blocks.
 */
const CORE = [
  'hai_health',
  'hai_status',
  'hai_get_next_step',
  'hai_read_artifacts',
  'hai_park',
  'hai_set_focus',
  'hai_propose_next_step',
  'hai_accept_next_step',
  'hai_checkpoint',
  'hai_recover',
  'hai_open_mission',
  'hai_bind_project',
  'hai_authorize_session',
  'hai_get_contract',
  'hai_check_activity',
  'hai_park_item',
  'hai_recontract',
  'hai_close_mission',
];

export const missionsSurface: Surface = {
  name: 'missions',
  title: 'intentlog missions',
  instructions:
    'Missions with finite contracts. Open one mission per project (hai_open_mission or ' +
    'hai_mission_start), take a session lease (hai_authorize_session), check each step ' +
    '(hai_check_activity) and do what required_action says, close with evidence (hai_proof). ' +
    'Owner-gated calls answer owner_gate_required first: ask the owner for the code. ' +
    'Answers are flat (HAI-MCP v0.1): the text block is the JSON of the answer, its fields at ' +
    'the top level; a refusal is ok:false with error the code itself (a string such as ' +
    '"invalid_args"), message, and its details beside them.',
  tiers: ['core', 'all'],
  defaultTier: 'all',
  errorCodes: { invalid_argument: 'invalid_args' },
  nullIsAbsent: true,
  tools: withEnvelopeStyle(
    'flat',
    withSet(
      [
        ...deskTools,
        ...missionTools,
        ...dailyTools.slice(0, 2),
        missionStartTool(),
        checkActivityTool(
          'hai_drift_check',
          'Drift check',
          'The daily loop’s name for hai_check_activity: the same classification and required action.',
        ),
        proofTool(),
        ...dailyTools.slice(2),
        ...learningTools,
      ],
      'core',
      CORE,
    ),
  ),
};
