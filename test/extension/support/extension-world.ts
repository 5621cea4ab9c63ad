/**
 * The world most host tests run in: a mock provider server and the extension activated with its user
 * settings pointing at it (OpenAI protocol), fresh for each test and cleaned up after it. Call at the top
 * of a test file (it registers `beforeEach`/`afterEach`); read `world.server` and `world.extension` in tests.
 * The extension's core is loaded before each test (activation alone does not load it).
 */
import { afterEach, beforeEach } from 'vitest';
import { type MockProviderServer, startMockProviderServer } from '../../support/mock-provider/index.js';
import { type ActivatedExtension, type ActivationOptions, activateExtension } from './harness.js';

export interface ExtensionWorld {
  readonly server: MockProviderServer;
  readonly extension: ActivatedExtension;
  /** Activates again with other options (the one from `beforeEach` is cleaned up first). */
  reactivate(options: ActivationOptions): Promise<ActivatedExtension>;
}

export function useExtensionWorld(options: ActivationOptions = {}): ExtensionWorld {
  let server: MockProviderServer | undefined;
  let extension: ActivatedExtension | undefined;
  const activate = (extra: ActivationOptions) =>
    activateExtension({
      ...extra,
      userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server!.openaiBaseUrl, ...extra.userSettings },
    });
  beforeEach(async () => {
    server = await startMockProviderServer();
    extension = activate(options);
    // Host tests start where a user's first command or view would: with the core loaded.
    await extension.ready();
  });
  afterEach(async () => {
    await extension?.cleanup();
    await server?.close();
  });
  return {
    get server() {
      return server!;
    },
    get extension() {
      return extension!;
    },
    async reactivate(other) {
      await extension?.cleanup();
      extension = activate(other);
      await extension.ready();
      return extension;
    },
  };
}
