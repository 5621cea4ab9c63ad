/**
 * One task of a plan, done the way its planner decides (seed 000, its FIXME fixed): as one agent; as
 * parallel sub-tasks followed by one synthesizer call that sees every result; or as a sequence whose
 * sub-tasks each carry the previous result in their prompt (no extra call to copy state). Sub-tasks are
 * planned again, one level down, until `maxDepth`; at the limit a task is done by one agent. Every step is
 * a task in the tree, so the plan unfolds in the sidebar as it is made, and each part can be stopped.
 */
import type { TaskSnapshot } from '../tasks/types.js';
import { defaultPlanRole, failureOf, type PlanEnvironment, type PlanNode, resultOf, startChild } from './plan-children.js';
import type { TaskWork, TaskWorkContext, TaskWorkResult } from '../tasks/work.js';
import { describePrompt } from '../tasks/describe-prompt.js';
import { chainBelow } from '../tasks/ancestor-tasks.js';
import type { Plan, PlannedTask } from './plan-schema.js';
import { type PlanProposal, approvePlanLoop, taskWithChanges } from './plan-approval-step.js';
import { PlanTodos, planText } from './plan-todos.js';
import { plannerName, synthesizerName } from './planner-instructions.js';
import { type PlannerOutcome, plannerWork } from './planner-work.js';

/**
 * The work of a plan node: `planned` at `depth` (0 for the task the user gave), part of the `ancestors`
 * (outermost first; seed 000's ancestor tasks). The node's planner, its agent and its synthesizer work on
 * the node's own task, so they see the node's ancestors; its sub-tasks see the node's task as well.
 */
export function planNodeWork(
  environment: PlanEnvironment,
  planned: PlannedTask,
  depth: number,
  ancestors: readonly string[] = [],
): TaskWork {
  return async (context) => {
    const node: PlanNode = { planned, ancestors };
    const propose = (changes?: { previous: string; changes: string }) => proposePlan(environment, node, depth, context, changes);
    // Only the run's root asks: below it, the user has approved the plan these sub-tasks are part of.
    const decided = depth === 0 && environment.approval ? await approvePlanLoop(environment.approval, context, propose) : await propose();
    if ('ended' in decided) return decided.ended;
    const plan = decided.plan;
    if (!plan || plan.type === 'llm' || plan.subTasks.length === 0) return runAgentStep(environment, node, context);
    const todos = new PlanTodos(context, plan.subTasks);
    if (plan.type === 'parallel') return runParallel(environment, node, plan.subTasks, depth, context, todos);
    return runSequence(environment, node, plan.subTasks, depth, context, todos);
  };
}

/** A node's plan (none: one agent does it, at the depth limit or by the planner's choice), or its end when the planner failed. */
async function proposePlan(
  environment: PlanEnvironment,
  node: PlanNode,
  depth: number,
  context: TaskWorkContext,
  changes?: { previous: string; changes: string },
): Promise<PlanProposal<Plan | undefined>> {
  const { planned, ancestors } = node;
  if (depth >= environment.maxDepth) return { plan: undefined, text: planText(undefined, planned, defaultPlanRole) };
  const outcome: PlannerOutcome = {};
  const task = taskWithChanges(planned.task, changes);
  const planner = await startChild(environment, context, node, {
    role: plannerName,
    description: `Plan: ${describePrompt(planned.task, 50)}`,
    prompt: task,
    work: plannerWork(
      { task, ancestors, depth, maxDepth: environment.maxDepth, limits: environment.limits, model: environment.plannerModel },
      outcome,
    ),
  });
  if (planner.status !== 'completed') return { ended: { status: 'failed', output: '', error: failureOf(planner) } };
  return { plan: outcome.plan, text: planText(outcome.plan, planned, defaultPlanRole) };
}

async function runAgentStep(environment: PlanEnvironment, node: PlanNode, context: TaskWorkContext): Promise<TaskWorkResult> {
  const { planned } = node;
  const role = planned.role ?? defaultPlanRole;
  const task = await startChild(environment, context, node, {
    role,
    description: describePrompt(planned.task),
    prompt: planned.task,
    work: environment.agentWork(role, planned.task),
  });
  return resultOf(task);
}

async function runParallel(
  environment: PlanEnvironment,
  node: PlanNode,
  subTasks: PlannedTask[],
  depth: number,
  context: TaskWorkContext,
  todos: PlanTodos,
): Promise<TaskWorkResult> {
  const { planned } = node;
  const results = await Promise.all(
    subTasks.map(async (subTask, index) => {
      todos.started(index);
      const task = await startNode(environment, node, subTask, depth + 1, context);
      todos.ended(index);
      return task;
    }),
  );
  if (context.signal.aborted) return { status: 'completed', output: '' };
  const sections = results.map(
    (task, index) =>
      `## Sub-task ${index + 1} (${task.status}): ${subTasks[index].task}\n${task.status === 'completed' ? (task.output ?? '') : `${task.output ?? ''}\n(${failureOf(task)})`}`,
  );
  const prompt = `The task:\n${planned.task}\n\nIt was split into ${subTasks.length} sub-tasks, done side by side. Their results:\n\n${sections.join('\n\n')}\n\nCombine them into one answer to the task.`;
  const synthesis = await startChild(environment, context, node, {
    role: synthesizerName,
    description: `Combine: ${describePrompt(planned.task, 50)}`,
    prompt,
    work: environment.synthesizerWork(prompt),
  });
  return resultOf(synthesis);
}

async function runSequence(
  environment: PlanEnvironment,
  parent: PlanNode,
  subTasks: PlannedTask[],
  depth: number,
  context: TaskWorkContext,
  todos: PlanTodos,
): Promise<TaskWorkResult> {
  let previous: string | undefined;
  for (const [index, subTask] of subTasks.entries()) {
    if (context.signal.aborted) break;
    // The previous result travels in the prompt itself: no extra model call to copy it into state.
    const task = previous === undefined ? subTask.task : `${subTask.task}\n\nThe result of the previous step:\n${previous}`;
    todos.started(index);
    const node = await startNode(environment, parent, { ...subTask, task }, depth + 1, context);
    todos.ended(index);
    if (node.status !== 'completed') return { status: 'failed', output: previous ?? '', error: failureOf(node) };
    previous = node.output ?? '';
  }
  return { status: 'completed', output: previous ?? '' };
}

/** A sub-task of `parent`, as a node of its own: the parent's task joins its ancestors. */
function startNode(
  environment: PlanEnvironment,
  parent: PlanNode,
  planned: PlannedTask,
  depth: number,
  context: TaskWorkContext,
): Promise<TaskSnapshot> {
  const ancestors = chainBelow(parent.ancestors, parent.planned.task);
  return startChild(
    environment,
    context,
    { planned, ancestors },
    {
      role: 'plan',
      description: describePrompt(planned.task),
      prompt: planned.task,
      work: planNodeWork(environment, planned, depth, ancestors),
    },
  );
}

/** A task working for `node` (its planner, agent, synthesizer, or a sub-node): it carries the node's ancestors. */

export { defaultPlanRole, type PlanEnvironment } from './plan-children.js';
