/** An `ExtensionContext` with an in-memory `SecretStorage` and real storage folders. */
import { EventEmitter, Uri } from './fake-basics.js';

export class FakeSecretStorage {
  readonly values = new Map<string, string>();
  private readonly changed = new EventEmitter<{ key: string }>();
  readonly onDidChange = this.changed.event;

  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    this.changed.fire({ key });
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
    this.changed.fire({ key });
  }
  async keys(): Promise<string[]> {
    return [...this.values.keys()];
  }
}

/** A `Memento` in memory (the extension's `workspaceState`). */
export class FakeMemento {
  readonly values = new Map<string, unknown>();

  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : defaultValue;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
  keys(): string[] {
    return [...this.values.keys()];
  }
}

export interface FakeExtensionContext {
  subscriptions: Array<{ dispose(): unknown }>;
  secrets: FakeSecretStorage;
  workspaceState: FakeMemento;
  extensionUri: Uri;
  storageUri: Uri | undefined;
  globalStorageUri: Uri;
  extension: { id: string };
}

export function createExtensionContext(options: {
  extensionPath: string;
  storagePath?: string;
  globalStoragePath: string;
}): FakeExtensionContext {
  return {
    subscriptions: [],
    secrets: new FakeSecretStorage(),
    workspaceState: new FakeMemento(),
    extensionUri: Uri.file(options.extensionPath),
    storageUri: options.storagePath === undefined ? undefined : Uri.file(options.storagePath),
    globalStorageUri: Uri.file(options.globalStoragePath),
    extension: { id: 'agent-team.agent-team' },
  };
}
