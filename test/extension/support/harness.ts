/**
 * Activates the extension against the fake `vscode` module, in a real temporary folder, and cleans up.
 * Each test file must call `vi.mock('vscode', () => import('./support/fake-vscode.js'))` itself (hoisted).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import type * as vscode from 'vscode';
import { activate, deactivate, loadCore, loadedCore } from '../../../src/extension/extension.js';
import type { AgentTeamHost } from '../../../src/extension/host.js';
import type { LocalServer } from '../../../src/extension/local-server.js';
import { ManualClock } from '../../../src/engine/testing/manual-clock.js';
import { Uri } from './fake-basics.js';
import { createExtensionContext, type FakeExtensionContext } from './fake-context.js';
import { fake } from './fake-vscode.js';

export interface ActivationOptions {
  trusted?: boolean;
  /** Open a workspace folder. Default true. */
  folder?: boolean;
  /** Files to create in the folder: relative path → content. */
  files?: Record<string, string>;
  /** User settings, e.g. `{ 'agentTeam.provider': 'openai' }`. */
  userSettings?: Record<string, unknown>;
  workspaceSettings?: Record<string, unknown>;
  environment?: Record<string, string | undefined>;
  /** Where the extension's global storage is (VS Code's user prompts folder is found beside it). Default: in the base. */
  globalStoragePath?: string;
  probeLocalServer?: () => Promise<LocalServer | undefined>;
  /** Reopen the folder and storage of an earlier activation (a window reload). Default: fresh ones. */
  reloadOf?: ActivatedExtension;
}

export interface ActivatedExtension {
  context: FakeExtensionContext;
  /** The temporary directory holding the folder and the storage. */
  base: string;
  root: string;
  clock: ManualClock;
  /** The extension's host object (to wait on its task manager), once the core has loaded. */
  readonly host: AgentTeamHost;
  /** Loads the core if nothing has yet (activation alone does not) and gives its host. */
  ready(): Promise<AgentTeamHost>;
  /** Runs a command the way `vscode.commands.executeCommand` does. */
  execute(command: string, ...args: unknown[]): Promise<unknown>;
  /** Deactivates; `keepFiles` keeps the folder and storage for `reloadOf`. */
  cleanup(options?: { keepFiles?: boolean }): Promise<void>;
}

export function activateExtension(options: ActivationOptions = {}): ActivatedExtension {
  fake.reset();
  const base = options.reloadOf?.base ?? mkdtempSync(nodePath.join(tmpdir(), 'agent-team-extension-'));
  const root = nodePath.join(base, 'workspace');
  mkdirSync(root, { recursive: true });
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(nodePath.dirname(nodePath.join(root, path)), { recursive: true });
    writeFileSync(nodePath.join(root, path), content);
  }
  fake.state.trusted = options.trusted ?? true;
  if (options.folder ?? true) fake.state.folders.push({ uri: Uri.file(root), name: 'workspace', index: 0 });
  for (const [key, value] of Object.entries(options.userSettings ?? {})) fake.state.settings.global.set(key, value);
  for (const [key, value] of Object.entries(options.workspaceSettings ?? {})) fake.state.settings.workspace.set(key, value);
  const context = createExtensionContext({
    extensionPath: nodePath.resolve(__dirname, '../../..'),
    storagePath: nodePath.join(base, 'storage'),
    globalStoragePath: options.globalStoragePath ?? nodePath.join(base, 'global-storage'),
  });
  const clock = new ManualClock();
  activate(context as unknown as vscode.ExtensionContext, {
    clock,
    environment: options.environment ?? {},
    probeLocalServer: options.probeLocalServer ?? (async () => undefined),
  });
  return {
    context,
    base,
    root,
    clock,
    // The core loads on first use (a command, the view); tests that need the host before that await `ready()`.
    get host(): AgentTeamHost {
      const core = loadedCore();
      if (!core) throw new Error('the extension core is not loaded yet: await extension.ready() first');
      return core.host;
    },
    ready: async () => (await loadCore()).host,
    execute: (command, ...args) => (fake.state.commands.get(command) ?? fail(command))(...args) as Promise<unknown>,
    async cleanup(cleanupOptions = {}) {
      const closing = deactivate();
      // Running work gets its grace period on the manual clock.
      await clock.advance(5_000);
      await closing;
      for (const subscription of context.subscriptions.splice(0)) subscription.dispose();
      if (!cleanupOptions.keepFiles) rmSync(base, { recursive: true, force: true });
    },
  };
}

function fail(command: string): never {
  throw new Error(`command ${command} is not registered`);
}

/** Every string a test can see leave the host: webview messages, notifications, log lines, settings. */
export function everythingShown(posted: readonly unknown[]): string {
  return JSON.stringify({
    posted,
    messages: fake.state.messages,
    log: fake.state.logLines,
    progress: fake.state.progress.map((entry) => [entry.title, entry.messages]),
    settings: [...fake.state.settings.global.entries(), ...fake.state.settings.workspace.entries()],
    status: fake.state.statusItems.map((item) => item.text),
  });
}
