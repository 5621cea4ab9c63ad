/**
 * Tokens for remote roles (`a2a_auth_env: KAGENT_TOKEN` in a role file): kept in VS Code's SecretStorage
 * (the OS keychain) under the variable's name, set with **Set Remote Agent Token…**, never in a file. A
 * stored token wins over the environment variable of the same name. The engine reads tokens
 * synchronously when a remote task starts, so the ones the roles name are read ahead, and again whenever
 * the roles or the stored secrets change.
 */
import type * as vscode from 'vscode';
import type { SecretRedactor } from './redaction.js';

const prefix = 'agentTeam.a2aToken.';

export class RemoteAgentTokens implements vscode.Disposable {
  private readonly tokens = new Map<string, string>();
  private readonly wanted = new Set<string>();
  private readonly listening: vscode.Disposable;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly redactor: SecretRedactor,
  ) {
    this.listening = secrets.onDidChange((event) => {
      if (event.key.startsWith(prefix)) void this.read(event.key.slice(prefix.length));
    });
  }

  /** Reads the stored tokens of these variables (the ones the roles name), keeping them at hand. */
  async load(names: Iterable<string>): Promise<void> {
    await Promise.all([...names].map((name) => this.read(name)));
  }

  /** The stored token for `name`, if one is stored and was read. */
  get(name: string): string | undefined {
    return this.tokens.get(name);
  }

  async store(name: string, token: string): Promise<void> {
    const trimmed = token.trim();
    this.redactor.add(trimmed);
    this.tokens.set(name, trimmed);
    this.wanted.add(name);
    await this.secrets.store(prefix + name, trimmed);
  }

  async delete(name: string): Promise<void> {
    this.tokens.delete(name);
    await this.secrets.delete(prefix + name);
  }

  /** `environment` with the stored tokens over it: what remote roles read their tokens from. */
  over(environment: Readonly<Record<string, string | undefined>>): Readonly<Record<string, string | undefined>> {
    return new Proxy(environment, {
      get: (target, name) => (typeof name === 'string' ? (this.tokens.get(name) ?? target[name]) : undefined),
    });
  }

  dispose(): void {
    this.listening.dispose();
  }

  private async read(name: string): Promise<void> {
    this.wanted.add(name);
    const stored = (await this.secrets.get(prefix + name))?.trim();
    if (stored) {
      this.redactor.add(stored);
      this.tokens.set(name, stored);
    } else {
      this.tokens.delete(name);
    }
  }
}
