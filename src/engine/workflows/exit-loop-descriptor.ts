/** A workflow loop's `ExitLoop`: offered by the loop to its steps' agents, never named in a role's tools. */
import { defineCapability } from '../capabilities/capability-descriptor.js';

export const exitLoopDescriptor = defineCapability({
  name: 'exitLoop',
  tools: [{ name: 'ExitLoop', purpose: 'end the workflow loop it is a step of', listedInRoles: false }],
  settings: {},
});
