/**
 * Checks that need every workflow and role in view, so that a mistake is a validation error when the
 * file is read, never a surprise halfway through a run: each `{key}` is produced by an earlier step the
 * step can see, each role and each workflow named exists, no workflow includes itself (directly or not),
 * and nesting stays within `maxWorkflowDepth`.
 */
import {
  type GroupStep,
  type WorkflowDefinition,
  type WorkflowStep,
  isAgentStep,
  isGroupStep,
  isReferenceStep,
} from './workflow-definition.js';
import type { WorkflowProblem } from './workflow-problem.js';
import { placeholdersOf } from './prompt-template.js';

/** Groups and workflows by name nested at most this deep, the workflow itself counting as 1. */
export const maxWorkflowDepth = 10;

export interface WorkflowValidationContext {
  /** True when a role of this name exists (built in or from a role file). */
  hasRole(name: string): boolean;
  roleNames(): string[];
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
    if (depth > maxWorkflowDepth) report('', `nests ${depth} levels deep (groups and workflows by name); at most ${maxWorkflowDepth} are allowed`);
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
  walk(workflow.steps, 'steps', (step, path) => {
    if (isAgentStep(step) && !context.hasRole(step.agent)) {
      report(`${path}.agent`, `unknown role "${step.agent}"; known roles: ${context.roleNames().join(', ')}`);
    }
    if (isReferenceStep(step) && broken.has(step.workflow)) {
      report(`${path}.workflow`, `the workflow "${step.workflow}" has problems of its own; fix its file first`);
    } else if (isReferenceStep(step) && !workflows.has(step.workflow)) {
      const known = [...workflows.keys(), ...broken].filter((name) => name !== workflow.name).sort();
      report(`${path}.workflow`, `there is no workflow "${step.workflow}"${known.length > 0 ? `; known workflows: ${known.join(', ')}` : ''}`);
    }
  });
}

/**
 * Which keys each step can see. In a sequence (and a loop's round) a step sees what the steps before it
 * produced; parallel branches see only what was there before the group (their contexts are isolated),
 * and everything they produce is there after it. A workflow run by name sees only its own `{input}`.
 */
function checkPlaceholders(workflow: WorkflowDefinition, report: Report): void {
  const producers = new Map<string, string>();
  walk(workflow.steps, 'steps', (step, path) => {
    if (step.output_key !== undefined && !producers.has(step.output_key)) producers.set(step.output_key, path);
  });
  const check = (template: string | undefined, field: string, visible: ReadonlySet<string>) => {
    for (const key of placeholdersOf(template ?? '')) {
      if (visible.has(key)) continue;
      const producer = producers.get(key);
      report(field, producer ? `{${key}} is produced by ${producer}, which this step cannot see (only earlier steps, and not parallel branches, are visible)` : `{${key}} is not produced by an earlier step`);
    }
  };
  const visitGroup = (group: Pick<GroupStep, 'type' | 'steps'>, base: string, incoming: ReadonlySet<string>): Set<string> => {
    const produced = new Set<string>(incoming);
    group.steps.forEach((step, index) => {
      const path = `${base}[${index}]`;
      const visible = group.type === 'parallel' ? incoming : produced;
      let out: Set<string> = new Set();
      if (isAgentStep(step)) check(step.prompt, `${path}.prompt`, visible);
      else if (isReferenceStep(step)) check(step.input, `${path}.input`, visible);
      else if (isGroupStep(step)) out = visitGroup(step, `${path}.steps`, visible);
      for (const key of out) produced.add(key);
      if (step.output_key !== undefined) produced.add(step.output_key);
    });
    return produced;
  };
  visitGroup(workflow, 'steps', new Set(['input']));
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
  walk(steps, 'steps', (step) => {
    if (isReferenceStep(step)) names.push(step.workflow);
  });
  return names;
}

/** Every step, depth first, with its path (`steps[1].steps[0]`). */
function walk(steps: readonly WorkflowStep[], base: string, visit: (step: WorkflowStep, path: string) => void): void {
  steps.forEach((step, index) => {
    const path = `${base}[${index}]`;
    visit(step, path);
    if (isGroupStep(step)) walk(step.steps, `${path}.steps`, visit);
  });
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
