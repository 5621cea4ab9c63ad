/**
 * What a run that goes on needs first: a follow-up continues a finished run's root, a revision a finished
 * subagent's task, each with the conversation it had. Each check throws a `ConfigurationError` that says
 * why it cannot go on, and what to do instead.
 */
import type { ModelMessage } from '../model/types.js';
import { ConfigurationError } from '../errors.js';
import { coordinatorName } from '../roles/coordinator.js';
import type { RoleDefinition } from '../roles/types.js';
import { isTerminal, type TaskSnapshot } from '../tasks/types.js';
import type { AgentTeamOptions } from './team-options.js';

type Parts = Pick<AgentTeamOptions, 'taskManager' | 'roles' | 'conversations'>;

/** The finished run `rootId` heads, its role (none: the coordinator), and its conversation. */
export async function followedRun(
  options: Parts,
  rootId: string,
): Promise<{ root: TaskSnapshot; role: RoleDefinition | undefined; earlier: ModelMessage[] }> {
  const root = options.taskManager.get(rootId);
  if (!root) throw new ConfigurationError(`There is no run ${rootId} in the history: it may have been cleared. Start a new run.`);
  if (root.parentId !== null)
    throw new ConfigurationError(`Task ${root.id} is part of run ${root.rootId}; follow up the run itself (${root.rootId}).`);
  if (!isTerminal(root.status))
    throw new ConfigurationError(`Run ${root.id} is still running: send it a message instead, or wait for it to end.`);
  const role = root.role === coordinatorName ? undefined : options.roles.get(root.role);
  if (root.role !== coordinatorName && !role) {
    throw new ConfigurationError(`Run ${root.id} (${root.role}) is not a conversation that can go on; run it again with a new task.`);
  }
  const earlier = await options.conversations?.load(root.id);
  if (!earlier)
    throw new ConfigurationError(`The conversation of run ${root.id} is no longer kept (only the task list is); start a new run.`);
  return { root, role, earlier };
}

/** The finished subagent's task `taskId`, its role, and its conversation. */
export async function revisedTask(
  options: Parts,
  taskId: string,
): Promise<{ revised: TaskSnapshot; role: RoleDefinition; earlier: ModelMessage[] }> {
  const revised = options.taskManager.get(taskId);
  if (!revised) throw new ConfigurationError(`There is no task ${taskId} in the history: it may have been cleared.`);
  if (!isTerminal(revised.status))
    throw new ConfigurationError(`Task ${revised.id} is still running: send it a message instead, or wait for it to end.`);
  const role = options.roles.get(revised.role);
  if (!role)
    throw new ConfigurationError(
      `Task ${revised.id} (${revised.role}) is not a subagent's work that can be revised; run it again with a new task.`,
    );
  const earlier = await options.conversations?.load(revised.id);
  if (!earlier)
    throw new ConfigurationError(
      `The conversation of task ${revised.id} is no longer kept, so it cannot go on; delegate the change as a new task.`,
    );
  return { revised, role, earlier };
}
