/**
 * Set API Key: which provider (QuickPick, or the first argument), then the key in a password box. The key
 * goes to SecretStorage only: not to settings, the log, or the sidebar.
 */
import * as vscode from 'vscode';
import { isModelProvider, type ModelProvider, modelProviders } from '../../engine/index.js';
import { configurationSection, readSettings } from '../configuration.js';
import type { AgentTeamHost } from '../host.js';
import { providerLabel } from '../model-setup.js';
import { showInfo } from '../notify.js';

export async function setApiKey(host: AgentTeamHost, providerArgument?: unknown): Promise<void> {
  const provider = isModelProvider(providerArgument) ? providerArgument : await pickProvider();
  if (!provider) return;
  const label = providerLabel(provider);
  const existing = await host.keys.get(provider);
  const key = await vscode.window.showInputBox({
    title: vscode.l10n.t('Set API Key: {0}', label),
    prompt: vscode.l10n.t("Paste your {0} API key. It is kept in VS Code's secret storage, never in your settings.", label),
    placeHolder:
      existing?.source === 'secret-storage'
        ? vscode.l10n.t('A key is stored; a new one replaces it')
        : provider === 'anthropic'
          ? 'sk-ant-\u2026'
          : 'sk-\u2026',
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => {
      const trimmed = value.trim();
      if (trimmed === '') return vscode.l10n.t('Enter the key, or press Escape to cancel.');
      if (/\s/.test(trimmed)) return vscode.l10n.t('An API key has no spaces or line breaks; check what was pasted.');
      return undefined;
    },
  });
  if (key === undefined || key.trim() === '') return;
  await host.keys.store(provider, key);
  host.log.info(`Stored an API key for ${label} in the secret storage.`);
  await useProviderIfNeeded(host, provider);
  await host.setup.refresh();
}

async function pickProvider(): Promise<ModelProvider | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      { label: 'Anthropic', description: vscode.l10n.t('Claude models'), provider: 'anthropic' as const },
      {
        label: 'OpenAI',
        description: vscode.l10n.t('GPT models, or an OpenAI-compatible server that needs a key'),
        provider: 'openai' as const,
      },
    ],
    { title: vscode.l10n.t('Set API Key: which provider?'), placeHolder: vscode.l10n.t('Pick the provider the key is for') },
  );
  return picked?.provider;
}

/**
 * Makes the key's provider the one in use when the user has not chosen one, or when the chosen one
 * cannot run (no key); otherwise offers the switch.
 */
async function useProviderIfNeeded(host: AgentTeamHost, provider: ModelProvider): Promise<void> {
  const label = providerLabel(provider);
  const settings = readSettings(vscode.workspace.isTrusted);
  const switchProvider = () =>
    vscode.workspace.getConfiguration(configurationSection).update('provider', provider, vscode.ConfigurationTarget.Global);
  if (settings.provider === provider) {
    showInfo(vscode.l10n.t('Saved the {0} API key.', label));
    return;
  }
  const current = settings.provider;
  if (current === undefined || !(await host.setup.modelSetup()).configured) {
    await switchProvider();
    showInfo(vscode.l10n.t('Saved the {0} API key. Agent Team now uses {1}.', label, label));
    return;
  }
  showInfo(
    vscode.l10n.t('Saved the {0} API key. Agent Team still uses {1} (the agentTeam.provider setting).', label, providerLabel(current)),
    {
      title: vscode.l10n.t('Use {0}', label),
      run: switchProvider,
    },
  );
}

/** Remove API Key…: deletes a key from the secret storage (a key from the environment stays, and says so). */
export async function removeApiKey(host: AgentTeamHost, providerArgument?: unknown): Promise<void> {
  const stored: ModelProvider[] = [];
  for (const provider of modelProviders) if ((await host.keys.get(provider))?.source === 'secret-storage') stored.push(provider);
  const provider = isModelProvider(providerArgument) ? providerArgument : stored.length === 1 ? stored[0] : await pickStored(stored);
  if (!provider) {
    if (stored.length === 0)
      showInfo(
        vscode.l10n.t(
          'No API key is stored in VS Code. (Keys from ANTHROPIC_API_KEY or OPENAI_API_KEY are not stored here; unset the variable to stop using one.)',
        ),
      );
    return;
  }
  const label = providerLabel(provider);
  await host.keys.delete(provider);
  host.log.info(`Removed the ${label} API key from the secret storage.`);
  const left = await host.keys.get(provider);
  showInfo(left ? `Removed the stored ${label} API key. The key from the environment is still used.` : `Removed the ${label} API key.`);
  await host.setup.refresh();
}

async function pickStored(stored: readonly ModelProvider[]): Promise<ModelProvider | undefined> {
  if (stored.length === 0) return undefined;
  const picked = await vscode.window.showQuickPick(
    stored.map((provider) => ({ label: providerLabel(provider), provider })),
    {
      title: vscode.l10n.t('Remove API Key: which provider?'),
      placeHolder: vscode.l10n.t('Pick the key to remove from the secret storage'),
    },
  );
  return picked?.provider;
}
