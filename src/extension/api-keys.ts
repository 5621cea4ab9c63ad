/**
 * API keys: kept in VS Code's SecretStorage (the OS keychain), never in settings, logs or webview
 * messages; the provider's environment variable (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`) is the fallback.
 */
import type * as vscode from 'vscode';
import { apiKeyVariables, type ModelProvider } from '../engine/index.js';
import type { SecretRedactor } from './redaction.js';

export type ApiKeySource = 'secret-storage' | 'environment';

export interface ApiKey {
  key: string;
  source: ApiKeySource;
}

/** The SecretStorage entry for a provider's key. */
export function secretName(provider: ModelProvider): string {
  return `agentTeam.apiKey.${provider}`;
}

export class ApiKeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly redactor: SecretRedactor,
    private readonly environment: Readonly<Record<string, string | undefined>> = process.env,
  ) {
    for (const variable of Object.values(apiKeyVariables)) redactor.add(environment[variable]);
  }

  /** The key for `provider`: the stored one, else the environment's; undefined when there is none. */
  async get(provider: ModelProvider): Promise<ApiKey | undefined> {
    const stored = (await this.secrets.get(secretName(provider)))?.trim();
    if (stored) {
      this.redactor.add(stored);
      return { key: stored, source: 'secret-storage' };
    }
    const fromEnvironment = this.environment[apiKeyVariables[provider]]?.trim();
    return fromEnvironment ? { key: fromEnvironment, source: 'environment' } : undefined;
  }

  async store(provider: ModelProvider, key: string): Promise<void> {
    const trimmed = key.trim();
    this.redactor.add(trimmed);
    await this.secrets.store(secretName(provider), trimmed);
  }

  async delete(provider: ModelProvider): Promise<void> {
    await this.secrets.delete(secretName(provider));
  }

  /** Fires when a stored key changes (in this window or another). */
  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((event) => {
      if (event.key.startsWith('agentTeam.apiKey.')) listener();
    });
  }
}
