/**
 * Delegation, as a capability: an agent that may delegate, while its depth is below the limit, gets
 * `Agent`, `TaskOutput`, `TaskStop` and `SendMessage` over its own subtree; a turn starting more
 * subagents than the fan-out policy allows asks first (fan-out.ts).
 */
import type { Capability, CapabilityTask } from '../capabilities/capability.js';
import type { MessageInbox } from '../conversation/message-inbox.js';
import type { DelegatorTools } from '../roles/tool-names.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { TaskWork } from '../tasks/work.js';
import { createAgentTool } from './agent-tool.js';
import type { DelegationScope, RosterEntry } from './delegation-scope.js';
import { type FanOutPolicy, fanOutReview } from './fan-out.js';
import { createSendMessageTool } from './send-message-tool.js';
import { createTaskOutputTool } from './task-output-tool.js';
import { createTaskStopTool } from './task-stop-tool.js';

export interface DelegationSettings {
  taskManager: TaskManager;
  /** The roster as an agent with these tools sees it (roles beyond its reach marked). */
  roster(delegator: DelegatorTools): RosterEntry[];
  /** The work for a subagent of `role` at `depth`. */
  subagentWork(role: string, prompt: string, depth: number): TaskWork;
  /** Delegation is offered while `depth < maxDepth`. */
  maxDepth: number;
  /** Default: the task manager's (`TaskManagerOptions.autoBackgroundMs`). */
  autoBackgroundMs?: number;
  describeChanges?(taskId: string): string | undefined;
  /** Where `SendMessage` leaves messages for running tasks. */
  inbox: MessageInbox;
  /** When a turn starting many subagents needs the user's yes. Default: any number may start. */
  fanOut?: FanOutPolicy;
}

export function delegationCapability(settings: DelegationSettings): Capability {
  return {
    name: 'delegation',
    grant: (task) => ({
      tools: task.agent.mayDelegate && task.agent.depth < settings.maxDepth ? delegationTools(settings, task) : [],
      // Any agent's turn is reviewed: one that cannot delegate has no Agent calls to count.
      ...(settings.fanOut ? { reviewToolCalls: fanOutReview(settings.fanOut, { taskId: task.taskId, role: task.agent.role }) } : {}),
    }),
  };
}

function delegationTools(settings: DelegationSettings, task: CapabilityTask) {
  const { depth, reach } = task.agent;
  const scope: DelegationScope = {
    taskManager: settings.taskManager,
    parentTaskId: task.taskId,
    roster: () => settings.roster(reach),
    workFor: (role, prompt) => settings.subagentWork(role, prompt, depth + 1),
    ...(settings.autoBackgroundMs === undefined ? {} : { autoBackgroundMs: settings.autoBackgroundMs }),
    describeChanges: settings.describeChanges,
  };
  return [createAgentTool(scope), createTaskOutputTool(scope), createTaskStopTool(scope), createSendMessageTool(scope, settings.inbox)];
}
