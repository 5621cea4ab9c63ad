/**
 * The workspace's workflows: every `.agent-team/workflows/*.yaml` (or `.yml`) file read on its own, so a
 * broken file never breaks the others, then checked together (validate-workflows.ts). A workflow with a
 * problem is listed with it and cannot run; the others can.
 */
import { errorMessage } from '../errors.js';
import type { RoleFileSource } from '../roles/role-file-source.js';
import { parseWorkflowFile } from './parse-workflow-file.js';
import { type WorkflowValidationContext, validateWorkflows } from './validate-workflows.js';
import type { WorkflowDefinition } from './workflow-definition.js';
import type { WorkflowProblem } from './workflow-problem.js';

export const workflowDirectory = '.agent-team/workflows';

/** One workflow file's outcome: the workflow when it is sound, its problems otherwise. */
export interface WorkflowEntry {
  name: string;
  file: string;
  /** The description, when the file got far enough to have one. */
  description?: string;
  workflow?: WorkflowDefinition;
  problems: WorkflowProblem[];
}

/** Reads and checks every workflow file; entries sorted by name. */
export async function loadWorkflows(source: RoleFileSource, context: WorkflowValidationContext): Promise<WorkflowEntry[]> {
  const names = (await source.list(workflowDirectory)).filter((file) => /\.ya?ml$/i.test(file));
  const entries = new Map<string, WorkflowEntry>();
  const parsed = new Map<string, WorkflowDefinition>();
  for (const fileName of names) {
    const name = fileName.replace(/\.ya?ml$/i, '');
    const file = `${workflowDirectory}/${fileName}`;
    if (entries.has(name)) {
      entries.get(name)?.problems.push({ file, message: `defines the workflow "${name}" a second time (as .yaml and .yml); keep one` });
      continue;
    }
    let text: string;
    try {
      text = await source.read(file);
    } catch (error) {
      entries.set(name, { name, file, problems: [{ file, message: `could not be read: ${errorMessage(error)}` }] });
      continue;
    }
    const result = parseWorkflowFile(name, file, text, context.knownTools);
    if (result.ok) {
      parsed.set(name, result.workflow);
      entries.set(name, { name, file, description: result.workflow.description, workflow: result.workflow, problems: [] });
    } else {
      entries.set(name, { name, file, problems: result.problems });
    }
  }
  const broken = new Set([...entries.values()].filter((entry) => entry.problems.length > 0).map((entry) => entry.name));
  for (const [name, problems] of validateWorkflows(parsed, context, broken)) {
    const entry = entries.get(name) as WorkflowEntry;
    entry.problems.push(...problems);
    entry.workflow = undefined;
  }
  return [...entries.values()].sort((a, b) => a.name.localeCompare(b.name));
}
