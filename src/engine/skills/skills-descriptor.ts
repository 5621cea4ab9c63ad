/** The skills capability's vocabulary: the `Skill` tool. Its sources follow the folder's trust, not a setting. */
import { defineCapability } from '../capabilities/capability-descriptor.js';

export const skillsDescriptor = defineCapability({
  name: 'skills',
  tools: [{ name: 'Skill', purpose: 'load the Agent Skills of the folder and yours' }],
  settings: {},
});
