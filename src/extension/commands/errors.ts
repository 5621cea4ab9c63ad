/** How a command's failure reaches the user: a notification that says what to do next, and a log line. */
import * as vscode from 'vscode';
import { AgentTeamError, ConfigurationError, errorMessage, ProviderError } from '../../engine/index.js';
import { commandAction, type NotificationAction, showError } from '../notify.js';
import type { SecretRedactor } from '../redaction.js';

export function reportCommandError(
  command: string,
  error: unknown,
  log: Pick<vscode.LogOutputChannel, 'error' | 'show'>,
  redactor: SecretRedactor,
): void {
  const message = redactor.redact(errorMessage(error));
  log.error(`${command}: ${message}`);
  const actions: NotificationAction[] = [];
  if ((error instanceof ConfigurationError && /api key/i.test(message)) || (error instanceof ProviderError && error.kind === 'auth')) {
    actions.push(commandAction(vscode.l10n.t('Set API Key'), 'agentTeam.setApiKey'));
  }
  if (error instanceof ConfigurationError && /needs a folder/i.test(message)) {
    actions.push(commandAction(vscode.l10n.t('Open Folder\u2026'), 'workbench.action.files.openFolder'));
  }
  if (error instanceof ConfigurationError && /base url/i.test(message)) {
    actions.push(commandAction(vscode.l10n.t('Open Settings'), 'workbench.action.openSettings', 'agentTeam'));
  }
  const text = error instanceof AgentTeamError ? message : vscode.l10n.t('{0} (details in the Agent Team output)', message);
  showError(vscode.l10n.t('Agent Team: {0}', capitalize(text)), ...actions, {
    title: vscode.l10n.t('Show Log'),
    run: () => log.show(true),
  });
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
