import { homedir } from 'node:os';
import {
  formatWorkflowProblem,
  loadWorkflows,
  NodeRoleFileSource,
  type RoleRegistry,
  withTeamRoles,
  type WorkflowEntry,
  workflowRoles,
} from '../engine/index.js';
import type { CommandOutput } from './agents-command.js';
import type { WorkflowsArguments } from './arguments.js';
import { exitCodes } from './exit-codes.js';
import { terminalSafe } from './terminal-text.js';

/**
 * `agent-team workflows`: the workspace's workflows, each with its description and file; every problem
 * on stderr with its file, line and field. Exit 2 when any workflow is invalid, so CI can check them.
 */
export async function workflowsCommand(args: WorkflowsArguments, output: CommandOutput): Promise<number> {
  const entries = await readWorkflows(args.workspace);
  if (entries.length === 0) output.stdout.write('No workflows: add .agent-team/workflows/<name>.yaml files.\n');
  const nameWidth = Math.max(...entries.map((entry) => entry.name.length), 4);
  for (const entry of entries) {
    const state =
      entry.problems.length > 0
        ? `invalid (${entry.problems.length} problem${entry.problems.length === 1 ? '' : 's'})`
        : entry.workflow?.type;
    output.stdout.write(`${terminalSafe(`${entry.name.padEnd(nameWidth)}  ${entry.file} · ${state}`)}\n`);
    if (entry.description) output.stdout.write(`${terminalSafe(`${' '.repeat(nameWidth)}  ${entry.description}`)}\n`);
  }
  for (const entry of entries)
    for (const problem of entry.problems) output.stderr.write(`${terminalSafe(formatWorkflowProblem(problem))}\n`);
  return entries.some((entry) => entry.problems.length > 0) ? exitCodes.usage : exitCodes.completed;
}

/**
 * Every workflow of the workspace, checked against its roles: `roles` (the running engine's), else the
 * workspace's and the user's read once, as every host reads them (engine-roles.ts), so `workflows` and
 * `run --workflow` know the same roles.
 */
export async function readWorkflows(workspace: string, roles?: RoleRegistry): Promise<WorkflowEntry[]> {
  const source = new NodeRoleFileSource(workspace);
  if (roles) return loadWorkflows(source, workflowRoles(roles));
  return withTeamRoles({ root: workspace, home: homedir() }, (registry) => loadWorkflows(source, workflowRoles(registry)));
}
