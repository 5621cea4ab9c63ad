/** A problem in a workflow file, located as precisely as the file allows. */
export interface WorkflowProblem {
  /** Workspace-relative path of the file. */
  file: string;
  /** 1-based line, when known. */
  line?: number;
  /** Where in the file: `steps[2].prompt`; absent for the file as a whole. */
  field?: string;
  message: string;
}

/** `.agent-team/workflows/fix.yaml:12: steps[2].prompt: {review} is not produced by an earlier step` */
export function formatWorkflowProblem(problem: WorkflowProblem): string {
  const where = problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
  return problem.field ? `${where}: ${problem.field}: ${problem.message}` : `${where}: ${problem.message}`;
}

/** `['steps', 2, 'prompt']` → `steps[2].prompt`. */
export function fieldPath(path: readonly (string | number)[]): string {
  let text = '';
  for (const segment of path) text += typeof segment === 'number' ? `[${segment}]` : text === '' ? segment : `.${segment}`;
  return text;
}
