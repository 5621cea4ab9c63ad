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

export interface FakeExtensionContext {
  subscriptions: Array<{ dispose(): unknown }>;
  secrets: FakeSecretStorage;
  extensionUri: Uri;
  storageUri: Uri | undefined;
  globalStorageUri: Uri;
  extension: { id: string };
}

export function createExtensionContext(options: { extensionPath: string; storagePath?: string; globalStoragePath: string }): FakeExtensionContext {
  return {
    subscriptions: [],
    secrets: new FakeSecretStorage(),
    extensionUri: Uri.file(options.extensionPath),
    storageUri: options.storagePath === undefined ? undefined : Uri.file(options.storagePath),
    globalStorageUri: Uri.file(options.globalStoragePath),
    extension: { id: 'agent-team.agent-team' },
  };
}
