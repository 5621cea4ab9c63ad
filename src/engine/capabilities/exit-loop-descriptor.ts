/**
 * A workflow loop's `ExitLoop` (`workflows/exit-loop-tool.ts`): offered by the loop to its steps' agents, never
 * named in a role's tools. Declared here, not in `workflows/`: that folder shares this one's floor.
 */
import { defineCapability } from './capability-descriptor.js';

export const exitLoopDescriptor = defineCapability({
  name: 'exitLoop',
  tools: [{ name: 'ExitLoop', purpose: 'end the workflow loop it is a step of', listedInRoles: false }],
  settings: {},
});
