/**
 * Run Workflow… and Plan and Delegate…: the two ways to organize a team besides the coordinator. Each
 * asks what it needs (a workflow from a quick pick, then the input; or the task), or takes it as
 * arguments and starts at once, and the run shows in the sidebar like any other.
 */
import * as vscode from 'vscode';
import { formatWorkflowProblem, type WorkflowDefinition, type WorkflowEntry } from '../../engine/index.js';
import { readSettings } from '../configuration.js';
import type { AgentTeamHost } from '../host.js';
import { showError } from '../notify.js';
import { announceRun, configuredModelSetup } from './delegate-command.js';

/** `agentTeam.runWorkflow [name] [input]`: returns the run's task id once started. */
export async function runWorkflow(host: AgentTeamHost, nameArgument?: unknown, inputArgument?: unknown): Promise<string | undefined> {
  const setup = await configuredModelSetup(host);
  if (!setup) return undefined;
  const session = await host.engine();
  const entries = await session.listWorkflows();
  const entry =
    typeof nameArgument === 'string' ? entries.find((candidate) => candidate.name === nameArgument) : await pickWorkflow(entries);
  if (!entry) {
    if (typeof nameArgument === 'string') showError(vscode.l10n.t('There is no workflow "{0}" in .agent-team/workflows.', nameArgument));
    return undefined;
  }
  if (!entry.workflow) {
    const problems = entry.problems.map(formatWorkflowProblem);
    host.log.error(`Workflow ${entry.name} cannot run:\n${problems.join('\n')}`);
    const first = problems[0] ?? vscode.l10n.t('it has problems');
    showError(
      problems.length > 1
        ? vscode.l10n.t('The workflow "{0}" cannot run: {1} (and {2} more, in the log)', entry.name, first, problems.length - 1)
        : vscode.l10n.t('The workflow "{0}" cannot run: {1}', entry.name, first),
    );
    return undefined;
  }
  const input =
    typeof inputArgument === 'string' && inputArgument.trim() !== ''
      ? inputArgument.trim()
      : await askFor(
          vscode.l10n.t('Run Workflow: {0}', entry.name),
          entry.workflow.description,
          vscode.l10n.t('What should it work on? This is its input.'),
        );
  if (input === undefined) return undefined;
  await host.historyLoaded;
  const workflows = new Map<string, WorkflowDefinition>();
  for (const sound of entries) if (sound.workflow) workflows.set(sound.name, sound.workflow);
  const started = await session.runWorkflow(
    { workflow: entry.workflow, input, workflows, mode: 'background' },
    setup,
    readSettings(vscode.workspace.isTrusted),
  );
  announceRun(host, started.task);
  return started.task.id;
}

/** `agentTeam.planAndDelegate [task]`: returns the run's task id once started. */
export async function planAndDelegate(host: AgentTeamHost, taskArgument?: unknown): Promise<string | undefined> {
  const setup = await configuredModelSetup(host);
  if (!setup) return undefined;
  const task =
    typeof taskArgument === 'string' && taskArgument.trim() !== ''
      ? taskArgument.trim()
      : await askFor(
          vscode.l10n.t('Plan and Delegate'),
          vscode.l10n.t(
            'A planner splits the task into parallel or sequential sub-tasks (planned again, level by level), and agents do them.',
          ),
          vscode.l10n.t('e.g. Audit the error handling of every module in src/engine'),
        );
  if (task === undefined) return undefined;
  const session = await host.engine();
  await host.historyLoaded;
  const started = await session.plan({ task, mode: 'background' }, setup, readSettings(vscode.workspace.isTrusted));
  announceRun(host, started.task);
  return started.task.id;
}

async function pickWorkflow(entries: readonly WorkflowEntry[]): Promise<WorkflowEntry | undefined> {
  if (entries.length === 0) {
    showError(vscode.l10n.t('There are no workflows yet: add a .agent-team/workflows/<name>.yaml file (see the README for the format).'));
    return undefined;
  }
  const items = entries.map((entry) => ({
    label: `${entry.workflow ? '$(run-all)' : '$(error)'} ${entry.name}`,
    description: entry.workflow
      ? entry.workflow.type
      : `invalid: ${entry.problems.length} problem${entry.problems.length === 1 ? '' : 's'}`,
    detail: entry.workflow ? entry.description : formatWorkflowProblem(entry.problems[0]),
    entry,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Run Workflow'),
    placeHolder: vscode.l10n.t('Which workflow?'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.entry;
}

async function askFor(title: string, prompt: string, placeHolder: string): Promise<string | undefined> {
  const typed = await vscode.window.showInputBox({
    title,
    prompt,
    placeHolder,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('Describe the task, or press Escape to cancel.') : undefined),
  });
  return typed === undefined || typed.trim() === '' ? undefined : typed.trim();
}
