/**
 * Delegate Task…: who does it (the coordinator by default, or one role directly), then what (an input
 * box). With a task string as the first argument it starts at once, without asking; a second argument
 * `{ role }` picks the role. From the editor's context menu (a URI argument) the selection and the file
 * go along as context. The run starts in the background of the task manager — the command returns its
 * task id once started — with a cancellable progress notification while it runs.
 */
import * as vscode from 'vscode';
import { coordinatorName, type RoleDefinition, roleNotes, type TaskSnapshot } from '../../engine/index.js';
import { readSettings } from '../configuration.js';
import type { AgentTeamHost } from '../host.js';
import { configuredModelSetup } from '../configured-model-setup.js';
import { showRunProgress } from '../run-progress.js';

export interface DelegateCommandOptions {
  /** A role to run directly. Default: the coordinator (or, without a task argument, the user's pick). */
  role?: string;
  /** Tokens this run may spend (input + output, every subagent). Default: `agentTeam.budgetTokens`. */
  budgetTokens?: number;
}

/** Selections longer than this go along cut short, with a note saying so. */
const maxSelectionCharacters = 20_000;

export async function delegate(host: AgentTeamHost, first?: unknown, second?: unknown): Promise<string | undefined> {
  const options = optionsFrom(first, second);
  const setup = await configuredModelSetup(host);
  if (!setup) return undefined;
  const session = await host.engine();
  let prompt = options.prompt;
  let role = options.role;
  if (prompt === undefined) {
    if (role === undefined) {
      role = await pickRole(session.listRoles());
      if (role === undefined) return undefined;
    }
    const typed = await vscode.window.showInputBox({
      title: role === coordinatorName ? vscode.l10n.t('Delegate Task') : vscode.l10n.t('Delegate Task to {0}', role),
      prompt:
        role === coordinatorName
          ? vscode.l10n.t('What should the team do? The coordinator plans it and delegates the parts.')
          : vscode.l10n.t('What should the {0} do?', role),
      placeHolder: vscode.l10n.t('e.g. Find where dates are parsed and review it for timezone bugs'),
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('Describe the task, or press Escape to cancel.') : undefined),
    });
    if (typed === undefined || typed.trim() === '') return undefined;
    // From the editor's menu its file; from the palette, the active editor's selection when there is one.
    prompt = withEditorContext(typed.trim(), first instanceof vscode.Uri ? first : selectedFile());
  }
  await host.historyLoaded;
  const started = await session.delegate(
    {
      prompt,
      ...(role && role !== coordinatorName ? { role } : {}),
      ...(options.budgetTokens ? { maxTokens: options.budgetTokens } : {}),
      mode: 'background',
      awaitBackgroundTasks: false,
    },
    setup,
    readSettings(vscode.workspace.isTrusted),
  );
  const task = started.task;
  announceRun(host, task);
  return task.id;
}

export { configuredModelSetup };

/** Shows a run that has just started: the sidebar reveals it and a cancellable progress follows it. */
export function announceRun(host: AgentTeamHost, task: TaskSnapshot): void {
  host.log.info(`Started ${task.id} (${task.role}): ${task.description}`);
  void host.sidebar.reveal(task.id);
  void showRunProgress(host.taskManager, task);
}

function optionsFrom(first: unknown, second: unknown): { prompt?: string; role?: string; budgetTokens?: number } {
  const role = roleFrom(second) ?? roleFrom(first);
  const budget = budgetFrom(second) ?? budgetFrom(first);
  const budgetTokens = budget === undefined ? {} : { budgetTokens: budget };
  if (typeof first === 'string' && first.trim() !== '') return { prompt: first.trim(), role: role ?? coordinatorName, ...budgetTokens };
  if (typeof first === 'object' && first !== null && !(first instanceof vscode.Uri)) {
    const prompt = (first as { prompt?: unknown }).prompt;
    if (typeof prompt === 'string' && prompt.trim() !== '')
      return { prompt: prompt.trim(), role: role ?? coordinatorName, ...budgetTokens };
  }
  return { ...(role === undefined ? {} : { role }), ...budgetTokens };
}

function budgetFrom(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null || value instanceof vscode.Uri) return undefined;
  const budget = (value as DelegateCommandOptions).budgetTokens;
  return typeof budget === 'number' && Number.isInteger(budget) && budget > 0 ? budget : undefined;
}

function roleFrom(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || value instanceof vscode.Uri) return undefined;
  const role = (value as DelegateCommandOptions).role;
  return typeof role === 'string' && role.trim() !== '' ? role.trim() : undefined;
}

async function pickRole(roles: readonly RoleDefinition[]): Promise<string | undefined> {
  const items: Array<vscode.QuickPickItem & { role?: string }> = [
    {
      label: '$(organization) coordinator',
      description: vscode.l10n.t('default'),
      detail: vscode.l10n.t('Plans the work and delegates the parts to the roles below, in parallel where it can.'),
      role: coordinatorName,
    },
    { label: vscode.l10n.t('Run one role directly'), kind: vscode.QuickPickItemKind.Separator },
    ...roles.map((role) => ({
      label: `$(person) ${role.name}`,
      description: [role.source.kind === 'built-in' ? vscode.l10n.t('built-in') : role.source.path, ...roleNotes(role)].join(' · '),
      detail: role.description,
      role: role.name,
    })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Delegate Task: who should do it?'),
    placeHolder: vscode.l10n.t('The coordinator (Enter) plans and delegates; or pick one role to run directly'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.role;
}

/** The active editor's file when something is selected in it. */
function selectedFile(): vscode.Uri | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor && !editor.selection.isEmpty ? editor.document.uri : undefined;
}

/** Adds the editor's selection (or just the file) to the prompt, for a delegation from the context menu. */
function withEditorContext(prompt: string, uri: vscode.Uri | undefined): string {
  if (!uri) return prompt;
  const path = vscode.workspace.asRelativePath(uri, false);
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.toString() !== uri.toString() || editor.selection.isEmpty) {
    return `${prompt}\n\nContext: the user is looking at ${path}.`;
  }
  const selection = editor.selection;
  let text = editor.document.getText(selection);
  const cut = text.length > maxSelectionCharacters;
  if (cut) text = text.slice(0, maxSelectionCharacters);
  const first = selection.start.line + 1;
  const last = selection.end.line + 1;
  const lines = first === last ? `line ${first}` : `lines ${first}\u2013${last}`;
  const fence = text.includes('```') ? '````' : '```';
  return `${prompt}\n\nContext: selected in ${path}, ${lines}${cut ? ' (cut short)' : ''}:\n${fence}${editor.document.languageId}\n${text}\n${fence}`;
}
