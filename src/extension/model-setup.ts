/**
 * Which model the agents use: the settings (trust-filtered, see configuration.ts), the key from
 * SecretStorage or the environment, and per-role overrides, turned into the engine's `ModelSettings`.
 */
import { baseUrlVariables, createModel, defaultModelIds, type ModelProvider, type ModelSettings } from '../engine/model/create-model.js';
import type { Model } from '../engine/model/types.js';
import type { ApiKey, ApiKeyStore } from './api-keys.js';
import type { AgentTeamSettings } from './configuration.js';

export interface ModelSetup {
  provider: ModelProvider;
  /** False when nobody set `agentTeam.provider` and it was inferred from the keys and the base URL. */
  providerChosen: boolean;
  /** '' means the provider's default (`defaultModelIds`). */
  model: string;
  /** '' means none (the provider's environment variable, else its official API). */
  baseUrl: string;
  roleModels: Readonly<Record<string, string>>;
  apiKey: ApiKey | undefined;
  /** True when a run can start: there is a key, or a base URL (a local server needs no key). */
  configured: boolean;
}

type Environment = Readonly<Record<string, string | undefined>>;

export async function resolveModelSetup(settings: AgentTeamSettings, keys: ApiKeyStore, environment: Environment = process.env): Promise<ModelSetup> {
  let provider = settings.provider;
  let apiKey: ApiKey | undefined;
  if (provider === undefined) {
    // As the CLI does: a base URL almost always means an OpenAI-compatible server; otherwise a key decides.
    if (settings.baseUrl !== '') provider = 'openai';
    else {
      const anthropicKey = await keys.get('anthropic');
      const openaiKey = anthropicKey ? undefined : await keys.get('openai');
      provider = anthropicKey || !openaiKey ? 'anthropic' : 'openai';
      apiKey = anthropicKey ?? openaiKey;
    }
  }
  apiKey ??= await keys.get(provider);
  const environmentBaseUrl = environment[baseUrlVariables[provider]]?.trim() ?? '';
  return {
    provider,
    providerChosen: settings.provider !== undefined,
    model: settings.model,
    baseUrl: settings.baseUrl,
    roleModels: settings.roleModels,
    apiKey,
    configured: apiKey !== undefined || settings.baseUrl !== '' || environmentBaseUrl !== '',
  };
}

/** The model id a role runs on: the user's per-role setting, else the role file's, else `agentTeam.model`. */
export function modelIdFor(setup: ModelSetup, role: string, roleFileModel?: string): string {
  return setup.roleModels[role] ?? roleFileModel ?? setup.model;
}

export function modelSettingsFor(setup: ModelSetup, role: string, roleFileModel?: string): ModelSettings {
  return {
    provider: setup.provider,
    model: modelIdFor(setup, role, roleFileModel),
    ...(setup.apiKey ? { apiKey: setup.apiKey.key } : {}),
    ...(setup.baseUrl !== '' ? { baseUrl: setup.baseUrl } : {}),
  };
}

/** Builds a role's model; throws the engine's `ConfigurationError` (no key, bad base URL) with advice. */
export function createModelFor(setup: ModelSetup, role: string, roleFileModel?: string, environment: Environment = process.env): Model {
  return createModel(modelSettingsFor(setup, role, roleFileModel), { environment });
}

/** The model the sidebar names, e.g. `claude-sonnet-5-5` when `agentTeam.model` is empty. */
export function displayModel(setup: ModelSetup): string {
  return setup.model || defaultModelIds[setup.provider];
}

export function providerLabel(provider: ModelProvider): string {
  return provider === 'anthropic' ? 'Anthropic' : 'OpenAI';
}
