/**
 * An inline agent's name is what the task tree, the trace and the run log show as its role, so it must
 * not look like something it is not: never a role's name (built in or from a role file: a reader would
 * take the task for that role's work, and revising or resuming it would run that role), never a name the
 * tree uses for tasks that are not agents, and one definition per name within a workflow.
 */
import { coordinatorName } from '../roles/coordinator.js';
import type { InlineAgent } from './inline-agent.js';

/** Roles the tree gives tasks that are not a role's agent: workflows, their groups, plans. */
const reservedNames = new Set([coordinatorName, 'workflow', 'sequential', 'parallel', 'loop', 'plan', 'planner', 'synthesizer']);

export interface InlineNameContext {
  hasRole(name: string): boolean;
}

/** Checks the inline agents of one workflow, in file order; `field` is the path of the step's `agent`. */
export function inlineNameChecker(
  context: InlineNameContext,
  report: (field: string, message: string) => void,
): (agent: InlineAgent, field: string) => void {
  const seen = new Map<string, { agent: InlineAgent; field: string }>();
  return (agent, field) => {
    if (reservedNames.has(agent.name)) {
      report(
        `${field}.name`,
        `"${agent.name}" is a name the task tree gives to ${agent.name === coordinatorName ? 'the coordinator' : 'tasks that are not agents'}; give the inline agent a name of its own`,
      );
      return;
    }
    if (context.hasRole(agent.name)) {
      report(
        `${field}.name`,
        `"${agent.name}" is the name of a role; give the inline agent a name of its own (or write agent: ${agent.name} to run that role)`,
      );
      return;
    }
    const earlier = seen.get(agent.name);
    if (earlier === undefined) seen.set(agent.name, { agent, field });
    else if (!sameDefinition(earlier.agent, agent)) {
      report(
        `${field}.name`,
        `an inline agent named "${agent.name}" is defined differently at ${earlier.field}; give this one another name, or define it the same way`,
      );
    }
  };
}

function sameDefinition(first: InlineAgent, second: InlineAgent): boolean {
  return (
    first.systemMessage === second.systemMessage &&
    first.description === second.description &&
    first.model === second.model &&
    JSON.stringify(first.tools) === JSON.stringify(second.tools)
  );
}
