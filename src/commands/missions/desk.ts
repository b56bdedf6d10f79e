import type { Decider } from '@event-driven-io/emmett';
import { streamName } from '../../events/stream-name.js';
import { authorizeSession } from './decide-lease.js';
import {
  acceptNextStep,
  checkpoint,
  distill,
  intake,
  park,
  parkItem,
  proposeNextStep,
  setFocus,
} from './decide-day.js';
import { closeMission, openMission, recontract, stopDay } from './decide-mission.js';
import { abandonLearning, completeLearning, startLearning } from './learning.js';
import type { DeskCommand } from './desk-commands.js';
import type { DeskEvent } from './desk-events.js';
import { evolveDesk, initialDesk, type Desk } from './desk-state.js';

/** One stream per project holds its missions desk: `missions:<project>:desk`. */
export const deskStream = (projectId: string): string =>
  streamName({ aggregateType: 'missions', projectId, aggregateId: 'desk' });

const decide = (command: DeskCommand, state: Desk): DeskEvent[] => {
  // the first command of a project names it; every event carries it
  const desk = state.project_id ? state : { ...state, project_id: command.data.project_id };
  switch (command.type) {
    case 'OpenMission':
      return openMission(desk, command.data);
    case 'Recontract':
      return recontract(desk, command.data);
    case 'CloseMission':
      return closeMission(desk, command.data);
    case 'AuthorizeSession':
      return authorizeSession(desk, command.data);
    case 'ProposeNextStep':
      return proposeNextStep(desk, command.data);
    case 'AcceptNextStep':
      return acceptNextStep(desk, command.data);
    case 'SetFocus':
      return setFocus(desk, command.data);
    case 'Park':
      return park(desk, command.data);
    case 'ParkItem':
      return parkItem(desk, command.data);
    case 'Intake':
      return intake(desk, command.data);
    case 'Distill':
      return distill(desk, command.data);
    case 'Checkpoint':
      return checkpoint(desk, command.data);
    case 'Stop':
      return stopDay(desk, command.data);
    case 'StartLearning':
      return startLearning(desk.learning, command.data);
    case 'CompleteLearning':
      return completeLearning(desk.learning, command.data);
    case 'AbandonLearning':
      return abandonLearning(desk.learning, command.data);
  }
};

export const deskDecider: Decider<Desk, DeskCommand, DeskEvent> = {
  decide,
  evolve: evolveDesk,
  initialState: initialDesk,
};
