/**
 * Set Remote Agent Token: which variable (the ones remote roles name in `a2a_auth_env`, or another, or the
 * first argument), then the token in a password box. Kept in SecretStorage only; an empty token removes
 * the stored one (the environment variable, if set, is used again).
 */
import * as vscode from 'vscode';
import type { AgentTeamHost } from '../host.js';
import { showInfo } from '../notify.js';

const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

export async function setRemoteAgentToken(host: AgentTeamHost, nameArgument?: unknown): Promise<void> {
  const name = typeof nameArgument === 'string' && variableName.test(nameArgument) ? nameArgument : await pickVariable(host);
  if (!name) return;
  const stored = host.remoteTokens.get(name) !== undefined;
  const token = await vscode.window.showInputBox({
    title: vscode.l10n.t('Set Remote Agent Token: {0}', name),
    prompt: vscode.l10n.t(
      'The token remote roles with a2a_auth_env: {0} send (as "Authorization: Bearer …"). Kept in VS Code\'s secret storage; leave it empty to remove the stored one.',
      name,
    ),
    placeHolder: stored ? vscode.l10n.t('A token is stored; a new one replaces it') : undefined,
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) =>
      /\s/.test(value.trim()) ? vscode.l10n.t('A token has no spaces or line breaks; check what was pasted.') : undefined,
  });
  if (token === undefined) return;
  if (token.trim() === '') {
    await host.remoteTokens.delete(name);
    host.log.info(`Removed the stored token for ${name}.`);
    showInfo(vscode.l10n.t('Removed the stored token for {0}.', name));
    return;
  }
  await host.remoteTokens.store(name, token);
  host.log.info(`Stored a token for ${name} in the secret storage.`);
  showInfo(vscode.l10n.t('Stored the token for {0}: remote roles that name it send it from now on.', name));
}

/** The variables the workspace's remote roles name, each with who uses it and whether a token is stored. */
async function pickVariable(host: AgentTeamHost): Promise<string | undefined> {
  const roles = (await host.engine()).listRoles().filter((role) => role.a2aAuthEnv !== undefined);
  const byName = new Map<string, string[]>();
  for (const role of roles) byName.set(role.a2aAuthEnv!, [...(byName.get(role.a2aAuthEnv!) ?? []), role.name]);
  const other = { label: vscode.l10n.t('Another variable…'), name: undefined };
  const items = [
    ...[...byName].map(([name, users]) => ({
      label: name,
      description: vscode.l10n.t('used by {0}', users.join(', ')),
      detail: host.remoteTokens.get(name) !== undefined ? vscode.l10n.t('a token is stored') : vscode.l10n.t('no token stored'),
      name,
    })),
    other,
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Set Remote Agent Token: for which variable?'),
    placeHolder: vscode.l10n.t('The a2a_auth_env a remote role names'),
  });
  if (!picked) return undefined;
  if (picked.name) return picked.name;
  return vscode.window
    .showInputBox({
      title: vscode.l10n.t('Set Remote Agent Token: variable name'),
      prompt: vscode.l10n.t('The name a role file gives in a2a_auth_env, e.g. KAGENT_TOKEN.'),
      ignoreFocusOut: true,
      validateInput: (value) =>
        variableName.test(value.trim()) ? undefined : vscode.l10n.t('A variable name: letters, digits and _, not starting with a digit.'),
    })
    .then((value) => value?.trim() || undefined);
}
