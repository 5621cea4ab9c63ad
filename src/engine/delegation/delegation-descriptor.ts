/** The delegation capability's vocabulary and settings: the tools of an agent that delegates, and whom it may start. */
import * as z from 'zod';
import { defineCapability, defineSetting } from '../capabilities/capability-descriptor.js';
import type { DelegationReach } from './delegation-reach.js';
import { defaults } from '../limits.js';

export const delegationDescriptor = defineCapability({
  name: 'delegation',
  tools: [
    { name: 'Agent', purpose: 'delegate to other roles' },
    { name: 'TaskOutput', purpose: "read its subagents' results" },
    { name: 'TaskStop', purpose: 'stop its subagents' },
    { name: 'SendMessage', purpose: 'message its running subagents' },
  ],
  settings: {
    // The CLI's --delegation-reach is run's alone (parsed with run's other options).
    delegationReach: defineSetting<DelegationReach>({
      key: 'agentTeam.delegationReach',
      schema: z.enum(['own-tools', 'any']),
      default: defaults.delegationReach,
      description:
        "Which roles an agent may hand work to. Read from your user settings only: a folder's settings cannot widen what its agents may do.",
      scope: 'application',
      // A folder's own settings must not widen what its agents may do: only the user's value counts.
      trust: 'user',
    }),
  },
});
