/**
 * New Role…: a role file from a short form (name, description, tools, model), written to
 * `.agent-team/agents/<name>.md` and opened for editing. The roles reload when it is written, so the new
 * role is in the pickers and the coordinator's roster at once. An existing file is never overwritten.
 */
import * as vscode from 'vscode';
import {
  defaultWorkspaceRoleTools,
  knownTools,
  newRoleDirectory,
  newRoleFileText,
  roleDescriptionProblem,
  roleNameProblem,
} from '../../engine/index.js';
import type { AgentTeamHost } from '../host.js';
import { showError, showInfo } from '../notify.js';

export async function newRole(host: AgentTeamHost): Promise<void> {
  if ((vscode.workspace.workspaceFolders ?? []).length === 0) {
    showError(vscode.l10n.t('Open a folder first: a role file lives in its .agent-team/agents folder.'));
    return;
  }
  // Multi-root: the folder the agents work in, asked for if not yet chosen (its roles are the ones used).
  const folder = await host.chosenFolder();
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('New Role (1/4): name'),
    prompt: vscode.l10n.t("The role's name, as the coordinator and you will call it"),
    placeHolder: 'api-reviewer',
    ignoreFocusOut: true,
    validateInput: (value) => roleNameProblem(value),
  });
  if (name === undefined) return;
  const target = vscode.Uri.joinPath(folder.uri, ...newRoleDirectory.split('/'), `${name.trim()}.md`);
  if (await exists(target)) {
    showError(vscode.l10n.t('{0}/{1}.md already exists; open it to change the role.', newRoleDirectory, name.trim()));
    return;
  }
  const description = await vscode.window.showInputBox({
    title: vscode.l10n.t('New Role (2/4): description'),
    prompt: vscode.l10n.t('What it does, and when to use it (the coordinator chooses roles by this)'),
    ignoreFocusOut: true,
    validateInput: (value) => roleDescriptionProblem(value),
  });
  if (description === undefined) return;
  const picked = await vscode.window.showQuickPick(
    // Every tool a role may name, with what it is for, as its capability declares it.
    knownTools.map(({ name, purpose }) => ({
      label: name,
      description: purpose,
      picked: (defaultWorkspaceRoleTools as readonly string[]).includes(name),
    })),
    {
      title: vscode.l10n.t('New Role (3/4): tools'),
      placeHolder: vscode.l10n.t('Its tools (a role gets no more than these)'),
      canPickMany: true,
      ignoreFocusOut: true,
    },
  );
  if (picked === undefined) return;
  const model = await vscode.window.showInputBox({
    title: vscode.l10n.t('New Role (4/4): model'),
    prompt: vscode.l10n.t('Its model id, or empty for the model of the run that starts it'),
    placeHolder: 'inherit',
    ignoreFocusOut: true,
  });
  if (model === undefined) return;
  const tools = knownTools.map(({ name }) => name).filter((tool) => picked.some((item) => item.label === tool));
  const text = await newRoleFileText({ name: name.trim(), description, tools, model });
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  host.log.info(`Wrote the role file ${newRoleDirectory}/${name.trim()}.md.`);
  await vscode.commands.executeCommand('vscode.open', target);
  showInfo(vscode.l10n.t('The role {0} is ready: edit its instructions in the file; it reloads when you save.', name.trim()));
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
