import { hookCommand } from '../cli/intent/hook.js';
import { intentSurface } from '../mcp/intent/index.js';
import { defineModule } from './define.js';
import { intentKernel } from './kernel.js';

/** Intent claims of a coding task (contracts/intent.md), its Hooks CLI included. */
export const intentModule = defineModule({
  ...intentKernel,
  surfaces: [intentSurface],
  cli: [hookCommand],
});
