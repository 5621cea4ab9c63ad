/**
 * The plan the user sees, as a capability: the coordinator and planner roles get `TodoWrite`, whose list
 * becomes the task's `todos` (shown live by every host); and, where the user approves plans before a run
 * starts (`agentTeam.approvePlan`, `--approve-plan`), a run's root agent that delegates shows its plan
 * before its first subagent starts (plan-approval.ts).
 */
import type { Capability, CapabilityGrant } from '../capabilities/capability.js';
import type { UserChannel } from './user-channel.js';
import { coordinatorName } from '../roles/coordinator.js';
import type { TodoItem } from '../tasks/todo-item.js';
import { planApprovalInstruction, planApprovalReview } from './plan-approval.js';
import { createTodoWriteTool } from './todo-write-tool.js';

/** The roles that plan: they get `TodoWrite`. */
export const planningRoles: readonly string[] = [coordinatorName, 'planner'];

export interface PlanSettings {
  /** Whether plans need the user's approval, read as each agent starts. Default: they don't. */
  approvePlan?: () => boolean;
  /** Where the plan question goes. Default: none (a run that needs approval fails, saying why). */
  channel?: UserChannel;
  /** How the user answers where nobody could be asked (the CLI: "pipe the answer on stdin"), for the failure. */
  howToAnswer?: string;
  /** Stops a task's tree as a user stop would; not awaited (the task's own turn calls it). */
  stopTask(taskId: string): void;
}

export function planCapability(settings: PlanSettings): Capability {
  return {
    name: 'plan',
    grant: (task) => {
      const plans = planningRoles.includes(task.agent.role);
      const approves = task.agent.depth === 0 && task.agent.mayDelegate && (settings.approvePlan?.() ?? false);
      if (!plans && !approves) return undefined;
      let todos: TodoItem[] | undefined;
      // An agent whose plan is approved writes it with TodoWrite, whatever its role.
      const grant: CapabilityGrant = {
        tools: [
          createTodoWriteTool((written) => {
            todos = written;
            task.context.setTodos?.(written);
          }),
        ],
      };
      if (approves) {
        grant.instructions = planApprovalInstruction;
        grant.reviewToolCalls = planApprovalReview({
          context: task.context,
          role: task.agent.role,
          ...(settings.channel ? { channel: settings.channel } : {}),
          ...(settings.howToAnswer ? { howToAnswer: settings.howToAnswer } : {}),
          todos: () => todos,
          stopRun: () => settings.stopTask(task.taskId),
        });
      }
      return grant;
    },
  };
}
