import { endReason } from '../tasks/end-reason.js';
import type { Model } from '../model/types.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { TaskSnapshot } from '../tasks/types.js';
import type { TaskWork, TaskWorkContext, TaskWorkResult } from '../tasks/work.js';
import type { PlanLimits, PlannedTask } from './plan-schema.js';
import type { PlanApprovalHost } from './plan-approval-step.js';

/** What a plan node works with, and how it starts one child task and reads its end. */

export interface PlanEnvironment {
  taskManager: TaskManager;
  /** Levels of planning: a task at this depth is done by one agent. */
  maxDepth: number;
  limits: PlanLimits;
  /** The model of the planner calls. */
  plannerModel: Model;
  /** One agent of `role` doing `prompt`. */
  agentWork(role: string, prompt: string): TaskWork;
  /** The synthesizer: one agent that combines the results of parallel sub-tasks. */
  synthesizerWork(prompt: string): TaskWork;
  /** Where the root's plan needs the user's approval (`--approve-plan`): who asks. Default: no approval. */
  approval?: PlanApprovalHost;
}

/** The role a task is done by when nobody names one. */
export const defaultPlanRole = 'researcher';

/** A node's task and the tasks it is part of. */
export interface PlanNode {
  planned: PlannedTask;
  ancestors: readonly string[];
}

export async function startChild(
  environment: PlanEnvironment,
  context: TaskWorkContext,
  node: PlanNode,
  child: { role: string; description: string; prompt: string; work: TaskWork },
): Promise<TaskSnapshot> {
  const started = await environment.taskManager.start({
    parentId: context.taskId,
    mode: 'foreground',
    ...(node.ancestors.length > 0 ? { ancestorTasks: node.ancestors } : {}),
    ...child,
  });
  return started.task;
}

export function resultOf(task: TaskSnapshot): TaskWorkResult {
  if (task.status === 'completed') return { status: 'completed', output: task.output ?? '' };
  return { status: 'failed', output: task.output ?? '', error: failureOf(task) };
}

export function failureOf(task: TaskSnapshot): string {
  return `${task.role} task ${task.id} ${task.status}: ${endReason(task) ?? 'failed'}`;
}
