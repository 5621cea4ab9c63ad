/**
 * The planner's task: one model call offered only `SubmitPlan`. A plan that cannot be used (invalid
 * input, too many sub-tasks, an unknown role, or no call at all) gets one retry with the reason; after
 * that the task is done by one agent. Provider failures fail the task, as they would any agent's.
 */
import { runAgent } from '../agent/run-agent.js';
import { defineTool } from '../agent/tool.js';
import type { AgentRunResult } from '../agent/types.js';
import type { Model, ModelMessage } from '../model/types.js';
import type { TaskWork, TaskWorkContext } from '../tasks/work.js';
import { forwardEvent } from '../agent-tasks/forward-event.js';
import { withAncestorTasks } from '../tasks/ancestor-tasks.js';
import { type Plan, type PlanLimits, type SubmitPlanInput, checkPlan, submitPlanInput } from './plan-schema.js';
import { plannerInstruction } from './planner-instructions.js';

const noPlanCall = 'you did not call SubmitPlan.';

export interface PlannerSpec {
  task: string;
  /** The tasks it is part of, outermost first (tasks/ancestor-tasks.ts): shown before it. Default: none. */
  ancestors?: readonly string[];
  depth: number;
  maxDepth: number;
  limits: PlanLimits;
  model: Model;
}

/** What the planner's task leaves for its node: the plan, or why there is none. */
export interface PlannerOutcome {
  plan?: Plan;
  /** Why no usable plan came after the retry. */
  malformed?: string;
}

export function plannerWork(spec: PlannerSpec, outcome: PlannerOutcome): TaskWork {
  return async (context) => {
    context.setModel(`${spec.model.provider}/${spec.model.modelId}`);
    const first = await attempt(spec, context, withAncestorTasks(`Plan this task:\n\n${spec.task}`, spec.ancestors));
    if (first.run.status === 'failed') return { status: 'failed', output: '', error: first.run.error ?? 'the planner failed' };
    if (first.plan) return accepted(outcome, first.plan);
    const retryPrompt: ModelMessage[] = [
      ...first.run.messages,
      {
        role: 'user',
        content: [{ type: 'text', text: `Your plan could not be used: ${first.error} Call SubmitPlan once more with a corrected plan.` }],
      },
    ];
    const second = await attempt(spec, context, retryPrompt);
    if (second.run.status === 'failed') return { status: 'failed', output: '', error: second.run.error ?? 'the planner failed' };
    if (second.plan) return accepted(outcome, second.plan);
    outcome.malformed = second.error;
    return { status: 'completed', output: `No usable plan after one retry (${second.error}); the task is done by one agent.` };
  };
}

async function attempt(
  spec: PlannerSpec,
  context: TaskWorkContext,
  prompt: string | ModelMessage[],
): Promise<{ run: AgentRunResult; plan?: Plan; error: string }> {
  let error = noPlanCall;
  const submitPlan = defineTool({
    name: 'SubmitPlan',
    description:
      'Submit how the task is best done: as one agent (llm), as parallel sub-tasks, or as a sequence of sub-tasks. Call it exactly once.',
    inputSchema: submitPlanInput(),
    readOnly: true,
    async execute(input: SubmitPlanInput) {
      const checked = checkPlan(input, spec.limits);
      if (!checked.ok) {
        error = checked.error;
        throw new Error(checked.error);
      }
      return 'Plan accepted.';
    },
    // A plan that passed its checks ends the planner's run: the loop hands back the call (`endedBy`).
    endsRun: () => 'Plan accepted.',
  });
  const run = await runAgent({
    model: spec.model,
    system: plannerInstruction({
      depth: spec.depth,
      maxDepth: spec.maxDepth,
      maxSubtasks: spec.limits.maxSubtasks,
      roles: spec.limits.roleNames().join(', '),
    }),
    prompt,
    tools: [submitPlan],
    // One model call: the plan is in the tool call; no answer after it is needed.
    maxTurns: 1,
    signal: context.signal,
    onEvent: (event) => forwardEvent(context, event),
  });
  const submitted = run.endedBy ? checkPlan(submitPlanInput().parse(run.endedBy.input), spec.limits) : undefined;
  if (submitted?.ok) return { run, plan: submitted.plan, error };
  // A call whose input failed the schema never reached `execute`: its error result says why.
  if (error === noPlanCall && run.status !== 'failed') error = schemaError(run) ?? error;
  return { run, error };
}

function accepted(outcome: PlannerOutcome, plan: Plan): { status: 'completed'; output: string } {
  outcome.plan = plan;
  const lines = plan.subTasks.map((subTask, index) => `${index + 1}. ${subTask.role ? `[${subTask.role}] ` : ''}${subTask.task}`);
  return {
    status: 'completed',
    output: plan.type === 'llm' ? 'Plan: one agent does the task.' : `Plan (${plan.type}):\n${lines.join('\n')}`,
  };
}

function schemaError(run: AgentRunResult): string | undefined {
  for (const message of [...run.messages].reverse()) {
    for (const part of message.content) {
      if (part.type === 'tool-result' && part.isError && part.toolName === 'SubmitPlan') return part.output;
    }
  }
  return undefined;
}
