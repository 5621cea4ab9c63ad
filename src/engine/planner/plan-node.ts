/**
 * One task of a plan, done the way its planner decides (seed 000, its FIXME fixed): as one agent; as
 * parallel sub-tasks followed by one synthesizer call that sees every result; or as a sequence whose
 * sub-tasks each carry the previous result in their prompt (no extra call to copy state). Sub-tasks are
 * planned again, one level down, until `maxDepth`; at the limit a task is done by one agent. Every step is
 * a task in the tree, so the plan unfolds in the sidebar as it is made, and each part can be stopped.
 */
import { endReason } from '../tasks/end-reason.js';
import type { Model } from '../model/types.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { TaskSnapshot } from '../tasks/types.js';
import type { TaskWork, TaskWorkContext, TaskWorkResult } from '../tasks/work.js';
import { describePrompt } from '../tasks/describe-prompt.js';
import { chainBelow } from '../tasks/ancestor-tasks.js';
import type { PlanLimits, PlannedTask } from './plan-schema.js';
import { plannerName, synthesizerName } from './planner-instructions.js';
import { type PlannerOutcome, plannerWork } from './planner-work.js';

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
}

/** The role a task is done by when nobody names one. */
export const defaultPlanRole = 'researcher';

/**
 * The work of a plan node: `planned` at `depth` (0 for the task the user gave), part of the `ancestors`
 * (outermost first; seed 000's ancestor tasks). The node's planner, its agent and its synthesizer work on
 * the node's own task, so they see the node's ancestors; its sub-tasks see the node's task as well.
 */
export function planNodeWork(environment: PlanEnvironment, planned: PlannedTask, depth: number, ancestors: readonly string[] = []): TaskWork {
  return async (context) => {
    const node: PlanNode = { planned, ancestors };
    if (depth >= environment.maxDepth) return runAgentStep(environment, node, context);
    const outcome: PlannerOutcome = {};
    const planner = await startChild(environment, context, node, {
      role: plannerName,
      description: `Plan: ${describePrompt(planned.task, 50)}`,
      prompt: planned.task,
      work: plannerWork({ task: planned.task, ancestors, depth, maxDepth: environment.maxDepth, limits: environment.limits, model: environment.plannerModel }, outcome),
    });
    if (planner.status !== 'completed') return { status: 'failed', output: '', error: failureOf(planner) };
    const plan = outcome.plan;
    if (!plan || plan.type === 'llm' || plan.subTasks.length === 0) return runAgentStep(environment, node, context);
    if (plan.type === 'parallel') return runParallel(environment, node, plan.subTasks, depth, context);
    return runSequence(environment, node, plan.subTasks, depth, context);
  };
}

/** A node's task and the tasks it is part of. */
interface PlanNode {
  planned: PlannedTask;
  ancestors: readonly string[];
}

async function runAgentStep(environment: PlanEnvironment, node: PlanNode, context: TaskWorkContext): Promise<TaskWorkResult> {
  const { planned } = node;
  const role = planned.role ?? defaultPlanRole;
  const task = await startChild(environment, context, node, { role, description: describePrompt(planned.task), prompt: planned.task, work: environment.agentWork(role, planned.task) });
  return resultOf(task);
}

async function runParallel(environment: PlanEnvironment, node: PlanNode, subTasks: PlannedTask[], depth: number, context: TaskWorkContext): Promise<TaskWorkResult> {
  const { planned } = node;
  const results = await Promise.all(subTasks.map((subTask) => startNode(environment, node, subTask, depth + 1, context)));
  if (context.signal.aborted) return { status: 'completed', output: '' };
  const sections = results.map((task, index) => `## Sub-task ${index + 1} (${task.status}): ${subTasks[index].task}\n${task.status === 'completed' ? (task.output ?? '') : `${task.output ?? ''}\n(${failureOf(task)})`}`);
  const prompt = `The task:\n${planned.task}\n\nIt was split into ${subTasks.length} sub-tasks, done side by side. Their results:\n\n${sections.join('\n\n')}\n\nCombine them into one answer to the task.`;
  const synthesis = await startChild(environment, context, node, { role: synthesizerName, description: `Combine: ${describePrompt(planned.task, 50)}`, prompt, work: environment.synthesizerWork(prompt) });
  return resultOf(synthesis);
}

async function runSequence(environment: PlanEnvironment, parent: PlanNode, subTasks: PlannedTask[], depth: number, context: TaskWorkContext): Promise<TaskWorkResult> {
  let previous: string | undefined;
  for (const subTask of subTasks) {
    if (context.signal.aborted) break;
    // The previous result travels in the prompt itself: no extra model call to copy it into state.
    const task = previous === undefined ? subTask.task : `${subTask.task}\n\nThe result of the previous step:\n${previous}`;
    const node = await startNode(environment, parent, { ...subTask, task }, depth + 1, context);
    if (node.status !== 'completed') return { status: 'failed', output: previous ?? '', error: failureOf(node) };
    previous = node.output ?? '';
  }
  return { status: 'completed', output: previous ?? '' };
}

/** A sub-task of `parent`, as a node of its own: the parent's task joins its ancestors. */
function startNode(environment: PlanEnvironment, parent: PlanNode, planned: PlannedTask, depth: number, context: TaskWorkContext): Promise<TaskSnapshot> {
  const ancestors = chainBelow(parent.ancestors, parent.planned.task);
  return startChild(environment, context, { planned, ancestors }, { role: 'plan', description: describePrompt(planned.task), prompt: planned.task, work: planNodeWork(environment, planned, depth, ancestors) });
}

/** A task working for `node` (its planner, agent, synthesizer, or a sub-node): it carries the node's ancestors. */
async function startChild(environment: PlanEnvironment, context: TaskWorkContext, node: PlanNode, child: { role: string; description: string; prompt: string; work: TaskWork }): Promise<TaskSnapshot> {
  const started = await environment.taskManager.start({ parentId: context.taskId, mode: 'foreground', ...(node.ancestors.length > 0 ? { ancestorTasks: node.ancestors } : {}), ...child });
  return started.task;
}

function resultOf(task: TaskSnapshot): TaskWorkResult {
  if (task.status === 'completed') return { status: 'completed', output: task.output ?? '' };
  return { status: 'failed', output: task.output ?? '', error: failureOf(task) };
}

function failureOf(task: TaskSnapshot): string {
  return `${task.role} task ${task.id} ${task.status}: ${endReason(task) ?? 'failed'}`;
}
