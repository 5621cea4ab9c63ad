/**
 * Runs a workflow on the task manager: every step is a task in the tree (visible, stoppable, its edits
 * reviewable), under the task of its group. State passes through `output_key` and `{key}` placeholders:
 * a sequence (and each round of a loop) shares its state; parallel branches start from a copy (their
 * contexts are isolated) and their keys are merged, in branch order, when all of them have ended. A loop's
 * state carries from one round to the next: before round 1 each key its steps write is set to its default
 * (or the empty text) unless it already has a value, so a step may read what a later step wrote last round.
 * An inline agent's step runs as a role of the inline agent's name (inline-agent.ts).
 */
import { endReason } from '../tasks/end-reason.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { TaskSnapshot } from '../tasks/types.js';
import type { TaskWork, TaskWorkContext, TaskWorkResult } from '../tasks/work.js';
import { LoopControl } from './exit-loop-tool.js';
import { keysWrittenIn } from './walk-steps.js';
import type { GroupStep, WorkflowDefinition, WorkflowStep } from './workflow-definition.js';
import { describeStep, type StepSources } from './workflow-step.js';

export interface WorkflowRunEnvironment extends StepSources {
  taskManager: TaskManager;
}

type State = Map<string, string>;

/** What every step of one group runs with: the engine's parts, the group's task, and the loop it is in (if any). */
interface GroupRun {
  environment: WorkflowRunEnvironment;
  context: TaskWorkContext;
  loop: LoopControl | undefined;
}

/** The work of a whole workflow: the root task of a run, or a step that runs a workflow by name. */
export function workflowWork(environment: WorkflowRunEnvironment, workflow: WorkflowDefinition, input: string): TaskWork {
  return (context) => runGroup({ environment, context, loop: undefined }, workflow, new Map([['input', input]]));
}

async function runGroup(
  run: GroupRun,
  group: Pick<GroupStep, 'type' | 'steps' | 'max_iterations' | 'defaults'>,
  state: State,
): Promise<TaskWorkResult> {
  switch (group.type) {
    case 'sequential':
      return runSequence(run, group.steps, state);
    case 'parallel':
      return runParallel(run, group.steps, state);
    case 'loop':
      return runLoop(run, group, state);
  }
}

async function runSequence(run: GroupRun, steps: readonly WorkflowStep[], state: State): Promise<TaskWorkResult> {
  const { context, loop } = run;
  let output = '';
  for (const step of steps) {
    if (context.signal.aborted) break;
    const task = await runStep(run, step, state);
    if (task.status !== 'completed') return { status: 'failed', output, error: stepFailure(task) };
    output = task.output ?? '';
    if (loop?.exitRequested) break;
  }
  return { status: 'completed', output };
}

async function runParallel(run: GroupRun, steps: readonly WorkflowStep[], state: State): Promise<TaskWorkResult> {
  const branches = steps.map((step) => {
    const branchState = new Map(state);
    return { branchState, ended: runStep(run, step, branchState) };
  });
  const tasks = await Promise.all(branches.map((branch) => branch.ended));
  // Keys each branch wrote, merged in branch order once all have ended.
  for (const { branchState } of branches) {
    for (const [key, value] of branchState) if (state.get(key) !== value) state.set(key, value);
  }
  const output = tasks.map((task) => `## ${task.role}: ${task.description} (${task.status})\n${task.output ?? ''}`).join('\n\n');
  const failed = tasks.filter((task) => task.status !== 'completed');
  if (failed.length > 0) return { status: 'failed', output, error: failed.map(stepFailure).join('; ') };
  return { status: 'completed', output };
}

async function runLoop(
  run: GroupRun,
  group: Pick<GroupStep, 'steps' | 'max_iterations' | 'defaults'>,
  state: State,
): Promise<TaskWorkResult> {
  const { context } = run;
  const { steps } = group;
  const maxIterations = group.max_iterations ?? 1;
  for (const key of keysWrittenIn(steps)) if (!state.has(key)) state.set(key, group.defaults?.[key] ?? '');
  const loop = new LoopControl();
  let result: TaskWorkResult = { status: 'completed', output: '' };
  for (let round = 1; round <= maxIterations && !context.signal.aborted; round++) {
    context.appendTranscript({ type: 'notice', text: `Round ${round} of at most ${maxIterations}.` });
    result = await runSequence({ ...run, loop }, steps, state);
    if (result.status !== 'completed') return result;
    if (loop.exitRequested) {
      context.appendTranscript({ type: 'notice', text: `The loop ended in round ${round}: ${loop.reason}` });
      return result;
    }
  }
  context.appendTranscript({ type: 'notice', text: `The loop ended after ${maxIterations} rounds, its limit.` });
  return result;
}

/** Runs one step as a foreground subtask of the group's task; its output goes to `output_key`. */
async function runStep(run: GroupRun, step: WorkflowStep, state: State): Promise<TaskSnapshot> {
  const { environment, context, loop } = run;
  const { role, description, prompt, work } = describeStep(environment, step, state, loop, {
    group: (group, inner) => (groupContext) => runGroup({ environment, context: groupContext, loop: inner }, group, state),
    workflow: (workflow, input) => workflowWork(environment, workflow, input),
  });
  const started = await environment.taskManager.start({ parentId: context.taskId, role, description, prompt, mode: 'foreground', work });
  const task = started.task;
  if (task.status === 'completed' && step.output_key !== undefined) state.set(step.output_key, task.output ?? '');
  return task;
}

function stepFailure(task: TaskSnapshot): string {
  return `step ${task.id} (${task.role}: "${task.description}") ${task.status}: ${endReason(task) ?? 'failed'}`;
}
