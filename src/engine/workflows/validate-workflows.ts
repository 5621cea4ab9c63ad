/**
 * Checks that need every workflow and role in view, so that a mistake is a validation error when the
 * file is read, never a surprise halfway through a run: each `{key}` has a value to give when the step
 * runs (check-placeholders.ts), each role and each workflow named exists, an inline agent's name is its
 * own (inline-agent-names.ts), no workflow includes itself (directly or not), and nesting stays within
 * `maxWorkflowDepth`.
 */
import { checkPlaceholders } from './check-placeholders.js';
import { inlineNameChecker } from './inline-agent-names.js';
import { walkSteps } from './walk-steps.js';
import {
  type GroupStep,
  type WorkflowDefinition,
  type WorkflowStep,
  isAgentStep,
  isGroupStep,
  isReferenceStep,
} from './workflow-definition.js';
import type { WorkflowProblem } from './workflow-problem.js';
import type { KnownTools } from '../roles/known-tools.js';

/** Groups and workflows by name nested at most this deep, the workflow itself counting as 1. */
export const maxWorkflowDepth = 10;

export interface WorkflowValidationContext {
  /** True when a role of this name exists (built in or from a role file). */
  hasRole(name: string): boolean;
  roleNames(): string[];
  /** The tool names an inline agent may list: the capabilities' (known-tools.ts), as the role registry has them. */
  knownTools: KnownTools;
}

/** Problems of each workflow, by name; a workflow without problems is absent. */
export function validateWorkflows(
  workflows: ReadonlyMap<string, WorkflowDefinition>,
  context: WorkflowValidationContext,
  /** Workflows whose files have problems of their own: running one by name is an error too. */
  broken: ReadonlySet<string> = new Set(),
): Map<string, WorkflowProblem[]> {
  const problems = new Map<string, WorkflowProblem[]>();
  for (const workflow of workflows.values()) {
    const found: WorkflowProblem[] = [];
    const report = (field: string, message: string) => found.push({ file: workflow.path, line: lineOf(workflow, field), field, message });
    checkReferences(workflow, workflows, context, broken, report);
    checkPlaceholders(workflow, report);
    const cycle = findCycle(workflow.name, workflows, [workflow.name]);
    if (cycle) report('', `includes itself: ${cycle.join(' → ')}`);
    const depth = depthOf(workflow, workflows, new Set());
    if (depth > maxWorkflowDepth)
      report('', `nests ${depth} levels deep (groups and workflows by name); at most ${maxWorkflowDepth} are allowed`);
    if (found.length > 0) problems.set(workflow.name, found.map(withoutEmptyField));
  }
  return problems;
}

type Report = (field: string, message: string) => void;

function checkReferences(
  workflow: WorkflowDefinition,
  workflows: ReadonlyMap<string, WorkflowDefinition>,
  context: WorkflowValidationContext,
  broken: ReadonlySet<string>,
  report: Report,
): void {
  const checkInlineName = inlineNameChecker(context, report);
  walkSteps(workflow.steps, 'steps', (step, path) => {
    if (isAgentStep(step)) {
      if (typeof step.agent !== 'string') checkInlineName(step.agent, `${path}.agent`);
      else if (!context.hasRole(step.agent))
        report(`${path}.agent`, `unknown role "${step.agent}"; known roles: ${context.roleNames().join(', ')}`);
    }
    if (isReferenceStep(step) && broken.has(step.workflow)) {
      report(`${path}.workflow`, `the workflow "${step.workflow}" has problems of its own; fix its file first`);
    } else if (isReferenceStep(step) && !workflows.has(step.workflow)) {
      const known = [...workflows.keys(), ...broken].filter((name) => name !== workflow.name).sort();
      report(
        `${path}.workflow`,
        `there is no workflow "${step.workflow}"${known.length > 0 ? `; known workflows: ${known.join(', ')}` : ''}`,
      );
    }
  });
}

function findCycle(name: string, workflows: ReadonlyMap<string, WorkflowDefinition>, trail: string[]): string[] | undefined {
  const workflow = workflows.get(name);
  if (!workflow) return undefined;
  for (const referenced of referencesOf(workflow.steps)) {
    if (referenced === trail[0]) return [...trail, referenced];
    if (trail.includes(referenced)) continue; // a cycle that does not pass through the start is reported on its own members
    const cycle = findCycle(referenced, workflows, [...trail, referenced]);
    if (cycle) return cycle;
  }
  return undefined;
}

function depthOf(group: Pick<GroupStep, 'steps'>, workflows: ReadonlyMap<string, WorkflowDefinition>, visiting: Set<string>): number {
  let deepest = 0;
  for (const step of group.steps) {
    if (isGroupStep(step)) deepest = Math.max(deepest, depthOf(step, workflows, visiting));
    if (isReferenceStep(step) && !visiting.has(step.workflow)) {
      const referenced = workflows.get(step.workflow);
      if (referenced) {
        visiting.add(step.workflow);
        deepest = Math.max(deepest, depthOf(referenced, workflows, visiting));
        visiting.delete(step.workflow);
      }
    }
  }
  return 1 + deepest;
}

function referencesOf(steps: readonly WorkflowStep[]): string[] {
  const names: string[] = [];
  walkSteps(steps, 'steps', (step) => {
    if (isReferenceStep(step)) names.push(step.workflow);
  });
  return names;
}

function lineOf(workflow: WorkflowDefinition, field: string): number | undefined {
  for (let candidate = field; candidate !== ''; candidate = candidate.replace(/(\.[^.[\]]+|\[\d+\])$/, '')) {
    const line = workflow.lines.get(candidate);
    if (line) return line;
    if (!/(\.[^.[\]]+|\[\d+\])$/.test(candidate)) break;
  }
  return 1;
}

function withoutEmptyField(problem: WorkflowProblem): WorkflowProblem {
  if (problem.field !== '') return problem;
  const { field: _unused, ...rest } = problem;
  return rest;
}
