/**
 * A role's `outputSchema`, as a capability: the agent is told the shape its answer must have, and an answer
 * that does not end with JSON matching it is sent back once, with what is wrong. Whether the answer then
 * stands is `withRoleLimits`'s to decide (role-limits-work.ts): a second miss fails the task.
 */
import { reviewAnswer } from '../agent/stop-condition-kinds.js';
import type { Capability } from '../capabilities/capability.js';
import { checkAnswer, outputInstruction, repairRequest } from '../roles/structured-result.js';

export function structuredResultCapability(): Capability {
  return {
    name: 'structured-result',
    grant: (task) => {
      const schema = task.agent.outputSchema;
      if (!schema) return undefined;
      let repairAsked = false;
      return {
        instructions: outputInstruction(schema),
        stopWhen: [
          reviewAnswer('structured-result', async (answer) => {
            if (repairAsked) return undefined;
            const checked = await checkAnswer(schema, answer);
            if (checked.ok || !checked.repairable) return undefined;
            repairAsked = true;
            return repairRequest(checked.problems);
          }),
        ],
      };
    },
  };
}
