/**
 * Select Model…: one list of every model Agent Team can run on. VS Code's own models come first (they
 * need no key: VS Code asks the user once before Agent Team may use one), then the providers that take
 * an API key, then a local server found on this machine. The choice goes to the user's settings.
 */
import * as vscode from 'vscode';
import { defaultModelIds, type ModelProvider } from '../../engine/index.js';
import { configurationSection } from '../configuration.js';
import type { AgentTeamHost } from '../host.js';
import { vscodeLmProvider } from '../language-model/language-model-errors.js';
import { providerLabel } from '../model-setup.js';
import { showInfo } from '../notify.js';

type Choice = vscode.QuickPickItem & {
  use?: { provider: typeof vscodeLmProvider; model: string } | { provider: ModelProvider } | { provider: 'local-server' };
};

export async function selectModel(host: AgentTeamHost): Promise<void> {
  const setup = await host.setup.modelSetup();
  const current = (provider: string, model: string) =>
    setup.providerChosen && setup.provider === provider && (model === '' || setup.model === model);
  const items: Choice[] = [{ label: vscode.l10n.t('VS Code language models (no API key)'), kind: vscode.QuickPickItemKind.Separator }];
  if (setup.chatModels.length === 0) {
    items.push({
      label: `$(info) ${vscode.l10n.t('VS Code offers no language model')}`,
      detail: vscode.l10n.t('Install or sign in to a model provider such as GitHub Copilot; its models then appear here.'),
    });
  }
  for (const model of setup.chatModels) {
    items.push({
      label: `$(sparkle) ${model.name || model.id}`,
      description: `${model.vendor} \u00b7 ${model.family}${current(vscodeLmProvider, model.id) ? ` \u00b7 ${vscode.l10n.t('current')}` : ''}`,
      detail: model.id,
      use: { provider: vscodeLmProvider, model: model.id },
    });
  }
  items.push({ label: vscode.l10n.t('Providers with an API key'), kind: vscode.QuickPickItemKind.Separator });
  for (const provider of ['anthropic', 'openai'] as const) {
    const hasKey = (await host.keys.get(provider)) !== undefined;
    items.push({
      label: `$(key) ${providerLabel(provider)}`,
      description: `${hasKey ? vscode.l10n.t('key set') : vscode.l10n.t('needs a key')}${current(provider, '') ? ` \u00b7 ${vscode.l10n.t('current')}` : ''}`,
      detail:
        provider === 'anthropic'
          ? vscode.l10n.t('Claude models')
          : vscode.l10n.t('GPT models, or any OpenAI-compatible server (agentTeam.baseUrl)'),
      use: { provider },
    });
  }
  const server = host.setup.detectedLocalServer;
  if (server) {
    items.push({
      label: `$(server) ${vscode.l10n.t('Local server at {0}', server.url)}`,
      description: vscode.l10n.t('{0} models, no key', server.models.length),
      use: { provider: 'local-server' },
    });
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Agent Team: Select Model'),
    placeHolder: vscode.l10n.t('The model the coordinator and its subagents run on (per-role models: agentTeam.roleModels)'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  const use = picked?.use;
  if (!use) return;
  const configuration = vscode.workspace.getConfiguration(configurationSection);
  const target = vscode.ConfigurationTarget.Global;
  if (use.provider === 'local-server') {
    await host.setup.useLocalServer();
    return;
  }
  if (use.provider === vscodeLmProvider) {
    await configuration.update('provider', vscodeLmProvider, target);
    await configuration.update('model', use.model, target);
    showInfo(vscode.l10n.t('Agent Team now uses {0} from VS Code.', picked.label.replace('$(sparkle) ', '')));
    await host.setup.refresh();
    return;
  }
  const model = await vscode.window.showInputBox({
    title: vscode.l10n.t('Select Model: {0}', providerLabel(use.provider)),
    prompt: vscode.l10n.t('The model id; empty for the default.'),
    value: setup.provider === use.provider ? setup.model : '',
    placeHolder: defaultModelIds[use.provider],
    ignoreFocusOut: true,
  });
  if (model === undefined) return;
  await configuration.update('provider', use.provider, target);
  await configuration.update('model', model.trim(), target);
  if ((await host.keys.get(use.provider)) === undefined) await vscode.commands.executeCommand('agentTeam.setApiKey', use.provider);
  else
    showInfo(
      vscode.l10n.t('Agent Team now uses {0} with {1}.', providerLabel(use.provider), model.trim() || defaultModelIds[use.provider]),
    );
  await host.setup.refresh();
}
