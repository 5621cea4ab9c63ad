/**
 * Run Again and Compare…: a finished subtask's prompt run again as a new run, by another role or on
 * another model, then both change sets side by side in the multi-file diff editor (the first run's
 * proposal on the left, the new one's on the right), so the user keeps the better one.
 */
import * as vscode from 'vscode';
import { coordinatorName, isTerminal, type TaskSnapshot } from '../../engine/index.js';
import { readSettings } from '../configuration.js';
import type { AgentTeamHost } from '../host.js';
import { vscodeLmProvider } from '../language-model/language-model-errors.js';
import type { ModelSetup } from '../model-setup.js';
import { showInfo } from '../notify.js';
import { proposalUri } from '../review/proposal-uri.js';
import { announceRun, configuredModelSetup } from './delegate-command.js';
import { pickTask } from './task-picker.js';

export async function rerunAndCompare(host: AgentTeamHost, taskArgument?: unknown): Promise<string | undefined> {
  await host.historyLoaded;
  const finished = host.taskManager.list().filter((task) => isTerminal(task.status) && task.role !== coordinatorName);
  const taskId =
    typeof taskArgument === 'string' && taskArgument !== ''
      ? taskArgument
      : await pickTask(finished, {
          title: vscode.l10n.t('Run Again and Compare'),
          placeHolder: vscode.l10n.t('Which finished task to run again?'),
        });
  const original = taskId === undefined ? undefined : host.taskManager.get(taskId);
  if (!original) return undefined;
  if (!isTerminal(original.status)) {
    showInfo(vscode.l10n.t('Task {0} is still running; run it again once it has ended.', original.id));
    return undefined;
  }
  const setup = await configuredModelSetup(host);
  if (!setup) return undefined;
  const session = await host.engine();
  const roles = session.listRoles().map((role) => role.name);
  const role = await vscode.window.showQuickPick(
    [original.role, ...roles.filter((name) => name !== original.role)].map((name) => ({
      label: name,
      description: name === original.role ? vscode.l10n.t('the same role') : undefined,
    })),
    { title: vscode.l10n.t('Run Again: {0}', original.description), placeHolder: vscode.l10n.t('Which role runs it this time?') },
  );
  if (!role) return undefined;
  const model = await pickModel(setup, original);
  if (model === undefined) return undefined;
  const again: ModelSetup = { ...setup, model, roleModels: {} };
  const started = await session.delegate(
    {
      prompt: original.prompt,
      role: role.label,
      description: vscode.l10n.t('Again: {0}', original.description),
      mode: 'background',
      awaitBackgroundTasks: false,
    },
    again,
    readSettings(vscode.workspace.isTrusted),
  );
  announceRun(host, started.task);
  void host.taskManager.wait(started.task.id).then((rerun) => compareChanges(host, original, rerun));
  return started.task.id;
}

/** The model for the new run: one VS Code offers, or an id for the provider in use ('' keeps the default). */
async function pickModel(setup: ModelSetup, original: TaskSnapshot): Promise<string | undefined> {
  if (setup.provider === vscodeLmProvider) {
    const picked = await vscode.window.showQuickPick(
      setup.chatModels.map((model) => ({ label: model.name || model.id, description: model.id, id: model.id })),
      {
        title: vscode.l10n.t('Run Again: {0}', original.description),
        placeHolder: vscode.l10n.t('Which model this time? The first run used {0}.', original.model ?? 'the default'),
      },
    );
    return picked?.id;
  }
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Run Again: {0}', original.description),
    prompt: vscode.l10n.t(
      'The model id this time (the first run used {0}); empty for {1}.',
      original.model ?? 'the default',
      setup.model || 'the default',
    ),
    value: setup.model,
    ignoreFocusOut: true,
  });
}

/** Both runs' proposals, file by file: the first on the left, the second on the right. */
export async function compareChanges(host: AgentTeamHost, first: TaskSnapshot, second: TaskSnapshot): Promise<void> {
  const paths = new Set([...(host.changes.get(first.id)?.paths() ?? []), ...(host.changes.get(second.id)?.paths() ?? [])]);
  if (paths.size === 0) {
    showInfo(
      vscode.l10n.t('Neither {0} nor {1} proposed changes to compare. Their answers are in the Agent Team view.', first.id, second.id),
    );
    return;
  }
  const folder = host.folder()?.uri;
  // A file only one run proposed shows against the file as it is (for the run that left it alone).
  const onDisk = (path: string, other: string) =>
    folder ? vscode.Uri.joinPath(folder, ...path.split('/')) : proposalUri({ taskId: other, path, side: 'base' });
  const side = (taskId: string, other: string, path: string) =>
    host.changes.get(taskId)?.file(path) ? proposalUri({ taskId, path, side: 'proposed' }) : onDisk(path, other);
  const resources = [...paths]
    .sort()
    .map((path) => [onDisk(path, first.id), side(first.id, second.id, path), side(second.id, first.id, path)]);
  await vscode.commands.executeCommand(
    'vscode.changes',
    `Agent Team Compare: ${first.id} (${first.model ?? first.role}) \u2194 ${second.id} (${second.model ?? second.role})`,
    resources,
  );
}
