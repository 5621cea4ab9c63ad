/**
 * What one workflow step starts as: the role, description, prompt and work of its task. An agent step runs
 * its role's agent (an inline agent's as a role of its name), a group step runs its steps, a named
 * workflow runs that workflow; the group and workflow runners come from run-workflow.ts.
 */
import type { Tool } from '../agent/tool.js';
import type { RoleDefinition } from '../roles/types.js';
import { describePrompt } from '../tasks/describe-prompt.js';
import type { TaskWork } from '../tasks/work.js';
import { type LoopControl, createExitLoopTool } from './exit-loop-tool.js';
import { inlineAgentRole } from './inline-agent.js';
import { fillTemplate } from './prompt-template.js';
import { type GroupStep, type WorkflowDefinition, type WorkflowStep, isAgentStep, isGroupStep } from './workflow-definition.js';

/** Where a step's work comes from. */
export interface StepSources {
  /** The work of one agent step: the agent of a role (by name, or an inline agent's) with the prompt, plus `extraTools`. */
  agentWork(role: string | RoleDefinition, prompt: string, extraTools: readonly Tool[]): TaskWork;
  /** Every sound workflow, for steps that run one by name. */
  workflows: ReadonlyMap<string, WorkflowDefinition>;
}

/** How a group step's and a named workflow's work is made (run-workflow.ts). */
export interface StepRunners {
  group(step: GroupStep, loop: LoopControl | undefined): TaskWork;
  workflow(workflow: WorkflowDefinition, input: string): TaskWork;
}

export interface StepTask {
  role: string;
  description: string;
  prompt: string;
  work: TaskWork;
}

export function describeStep(
  sources: StepSources,
  step: WorkflowStep,
  state: ReadonlyMap<string, string>,
  loop: LoopControl | undefined,
  runners: StepRunners,
): StepTask {
  if (isAgentStep(step)) {
    const prompt = fillTemplate(step.prompt, state);
    const tools = loop ? [createExitLoopTool(loop)] : [];
    const role = typeof step.agent === 'string' ? step.agent : inlineAgentRole(step.agent);
    const name = typeof role === 'string' ? role : role.name;
    return {
      role: name,
      description: step.description ?? describePrompt(prompt),
      prompt,
      work: sources.agentWork(role, prompt, tools),
    };
  }
  if (isGroupStep(step)) {
    const description = step.description ?? `${step.type} of ${step.steps.length} step${step.steps.length === 1 ? '' : 's'}`;
    const inner = step.type === 'loop' ? undefined : loop;
    return {
      role: step.type,
      description,
      prompt: description,
      work: runners.group(step, inner),
    };
  }
  const workflow = sources.workflows.get(step.workflow);
  const input = fillTemplate(step.input ?? '{input}', state);
  if (!workflow) {
    // Validation refuses a workflow that names a missing one; this only guards a file removed mid-run.
    return {
      role: 'workflow',
      description: step.workflow,
      prompt: input,
      work: async () => ({ status: 'failed', output: '', error: `there is no workflow "${step.workflow}"` }),
    };
  }
  return {
    role: 'workflow',
    description: step.description ?? workflow.name,
    prompt: input,
    work: runners.workflow(workflow, input),
  };
}
