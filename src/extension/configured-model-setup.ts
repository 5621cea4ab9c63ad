/**
 * The model setup a run needs, or undefined after telling the user how to set one up. Its own file, on
 * what it needs of the host, so that the host and the commands both use it without importing each other.
 */
import * as vscode from 'vscode';
import { commandAction, showError } from './notify.js';
import type { ModelSetup } from './model-setup.js';
import { walkthroughId } from './sidebar/webview-actions.js';

export interface ModelSetupSource {
  setup: { modelSetup(): Promise<ModelSetup> };
  context: { extension: { id: string } };
}

export async function configuredModelSetup(host: ModelSetupSource): Promise<ModelSetup | undefined> {
  const setup = await host.setup.modelSetup();
  if (setup.configured) return setup;
  showError(
    vscode.l10n.t(
      'Agent Team has no model to run: set an API key, or point agentTeam.baseUrl at an OpenAI-compatible server (Ollama, LM Studio).',
    ),
    commandAction(vscode.l10n.t('Set API Key'), 'agentTeam.setApiKey'),
    commandAction(
      vscode.l10n.t('Open Walkthrough'),
      'workbench.action.openWalkthrough',
      `${host.context.extension.id}#${walkthroughId}`,
      false,
    ),
  );
  return undefined;
}
