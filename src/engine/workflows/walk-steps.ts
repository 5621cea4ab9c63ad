import { type WorkflowStep, isGroupStep } from './workflow-definition.js';

/** Every step, depth first, with its path (`steps[1].steps[0]`); a workflow run by name is not entered. */
export function walkSteps(steps: readonly WorkflowStep[], base: string, visit: (step: WorkflowStep, path: string) => void): void {
  steps.forEach((step, index) => {
    const path = `${base}[${index}]`;
    visit(step, path);
    if (isGroupStep(step)) walkSteps(step.steps, `${path}.steps`, visit);
  });
}

/**
 * The keys these steps write (their `output_key`s, nested groups' included), in order of first writing.
 * A workflow run by name writes only its step's own `output_key`: its inner state is its own.
 */
export function keysWrittenIn(steps: readonly WorkflowStep[]): string[] {
  const keys: string[] = [];
  walkSteps(steps, 'steps', (step) => {
    if (step.output_key !== undefined && !keys.includes(step.output_key)) keys.push(step.output_key);
  });
  return keys;
}
