/**
 * Which model the agents use: the settings (trust-filtered, see configuration.ts), the key from
 * SecretStorage or the environment, the models VS Code offers (`vscode.lm`), and per-role overrides,
 * turned into the engine's `Model`s.
 */
import {
  baseUrlVariables,
  type Clock,
  createModel,
  defaultModelIds,
  type Model,
  type ModelSettings,
  type ProviderNoticeSink,
} from '../engine/index.js';
import type { ApiKey, ApiKeyStore } from './api-keys.js';
import type { AgentTeamSettings, ProviderName } from './configuration.js';
import { type ChatModelSummary, findChatModel, listChatModels } from './language-model/chat-models.js';
import { noChatModelError, vscodeLmProvider } from './language-model/language-model-errors.js';
import { VscodeLanguageModel } from './language-model/vscode-lm-model.js';

export interface ModelSetup {
  provider: ProviderName;
  /** False when nobody set `agentTeam.provider` and it was inferred from the keys, the base URL and VS Code's models. */
  providerChosen: boolean;
  /** '' means the provider's default (`defaultModelIds`; for `vscode-lm`, the first model VS Code offers). */
  model: string;
  /** '' means none (the provider's environment variable, else its official API). */
  baseUrl: string;
  roleModels: Readonly<Record<string, string>>;
  apiKey: ApiKey | undefined;
  /** The models VS Code offered when the setup was read (for `vscode-lm`, and to offer them). */
  chatModels: readonly ChatModelSummary[];
  /** True when a run can start: a key, a base URL (a local server needs no key), or VS Code's model. */
  configured: boolean;
}

type Environment = Readonly<Record<string, string | undefined>>;

/** Finds the models VS Code offers; injected so that tests and hosts without `vscode.lm` can pass their own. */
export type ChatModelLister = () => Promise<readonly ChatModelSummary[]>;

export async function resolveModelSetup(
  settings: AgentTeamSettings,
  keys: ApiKeyStore,
  environment: Environment = process.env,
  chatModels: ChatModelLister = listChatModels,
): Promise<ModelSetup> {
  let provider = settings.provider;
  let apiKey: ApiKey | undefined;
  let offered: readonly ChatModelSummary[] | undefined;
  if (provider === undefined) {
    // As the CLI does: a base URL almost always means an OpenAI-compatible server; otherwise a key decides,
    // and with no key at all, a model VS Code already has (Copilot's, say) needs none.
    if (settings.baseUrl !== '') provider = 'openai';
    else {
      const anthropicKey = await keys.get('anthropic');
      const openaiKey = anthropicKey ? undefined : await keys.get('openai');
      apiKey = anthropicKey ?? openaiKey;
      if (apiKey === undefined) offered = await chatModels();
      provider = anthropicKey
        ? 'anthropic'
        : openaiKey
          ? 'openai'
          : offered !== undefined && offered.length > 0
            ? vscodeLmProvider
            : 'anthropic';
    }
  }
  offered ??= await chatModels();
  const common = {
    provider,
    providerChosen: settings.provider !== undefined,
    model: settings.model,
    baseUrl: settings.baseUrl,
    roleModels: settings.roleModels,
    chatModels: offered,
  };
  if (provider === vscodeLmProvider) {
    return { ...common, apiKey: undefined, configured: findChatModel(offered, settings.model) !== undefined };
  }
  apiKey ??= await keys.get(provider);
  const environmentBaseUrl = environment[baseUrlVariables[provider]]?.trim() ?? '';
  return { ...common, apiKey, configured: apiKey !== undefined || settings.baseUrl !== '' || environmentBaseUrl !== '' };
}

/** The model id a role runs on: the user's per-role setting, else the role file's, else `agentTeam.model`. */
export function modelIdFor(setup: ModelSetup, role: string, roleFileModel?: string): string {
  return setup.roleModels[role] ?? roleFileModel ?? setup.model;
}

export function modelSettingsFor(
  setup: ModelSetup & { provider: Exclude<ProviderName, typeof vscodeLmProvider> },
  role: string,
  roleFileModel?: string,
): ModelSettings {
  return {
    provider: setup.provider,
    model: modelIdFor(setup, role, roleFileModel),
    ...(setup.apiKey ? { apiKey: setup.apiKey.key } : {}),
    ...(setup.baseUrl !== '' ? { baseUrl: setup.baseUrl } : {}),
  };
}

/** Builds a role's model; throws the engine's `ConfigurationError` (no key, bad base URL) with advice. */
export function createModelFor(
  setup: ModelSetup,
  role: string,
  roleFileModel?: string,
  options: { environment?: Environment; clock?: Clock; onNotice?: ProviderNoticeSink } = {},
): Model {
  if (setup.provider === vscodeLmProvider) return languageModelFor(setup, role, roleFileModel, options.clock);
  return createModel(modelSettingsFor({ ...setup, provider: setup.provider }, role, roleFileModel), {
    environment: options.environment ?? process.env,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
  });
}

/**
 * A role's model among VS Code's. The user's own choice (a per-role setting, `agentTeam.model`) must exist;
 * a role file's `model` is written for whichever provider its author used (`sonnet`, `gpt-5`), so when VS
 * Code has no such model the role runs on the user's choice instead of failing.
 */
function languageModelFor(
  setup: ModelSetup,
  role: string,
  roleFileModel: string | undefined,
  clock: Clock | undefined,
): VscodeLanguageModel {
  const userChoice = setup.roleModels[role] ?? setup.model;
  const fromRoleFile = setup.roleModels[role] === undefined ? roleFileModel : undefined;
  // Named at once by the model the setup saw, so the task shows `vscode-lm/<id>` from its start.
  const known =
    (fromRoleFile === undefined ? undefined : findChatModel(setup.chatModels, fromRoleFile)) ?? findChatModel(setup.chatModels, userChoice);
  return new VscodeLanguageModel({
    modelId: known?.id ?? userChoice,
    ...(clock ? { clock } : {}),
    justification: 'Agent Team runs its coordinator and subagents on this model for the tasks you delegate.',
    select: async () => {
      const models = await listChatModels();
      const model = (fromRoleFile === undefined ? undefined : findChatModel(models, fromRoleFile)) ?? findChatModel(models, userChoice);
      if (!model) throw noChatModelError(userChoice);
      return model;
    },
  });
}

/** The model the sidebar names, e.g. `claude-sonnet-5-5` when `agentTeam.model` is empty. */
export function displayModel(setup: ModelSetup): string {
  if (setup.provider === vscodeLmProvider) return findChatModel(setup.chatModels, setup.model)?.name ?? (setup.model || 'no model');
  return setup.model || defaultModelIds[setup.provider];
}

export function providerLabel(provider: ProviderName): string {
  if (provider === vscodeLmProvider) return 'VS Code';
  return provider === 'anthropic' ? 'Anthropic' : 'OpenAI';
}
