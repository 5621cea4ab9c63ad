/**
 * A small hand-written fake of the `vscode` module for host tests (`vi.mock('vscode', …)`). Each API the
 * extension calls behaves as VS Code documents it, over the real disk where files are involved; `fake`
 * lets a test set trust, settings and the user's answers, and see what was shown, run and registered.
 * Questions nobody scripted an answer for fail loudly, like the engine's scripted model.
 */
import * as nodePath from 'node:path';
import { Disposable, EventEmitter, type RelativePattern, TabInputTextDiff, Uri } from './fake-basics.js';
import { diskFileSystem } from './fake-file-system.js';
import { type FakeFileSystemProvider, type WorkspaceEdit } from './fake-documents.js';

export * from './fake-basics.js';
export * from './fake-language-models.js';
export { WorkspaceEdit } from './fake-documents.js';
export { type FakeCodeLensProvider, type FakeTextEditor, type ShownMessage, fake } from './fake-state.js';
export { env, l10n, languages } from './fake-languages.js';
import { manifest, type ShownMessage, fake, track } from './fake-state.js';

function showMessage(kind: ShownMessage['kind'], message: string, ...rest: unknown[]): Promise<string | undefined> {
  const options = typeof rest[0] === 'object' && rest[0] !== null ? (rest.shift() as { modal?: boolean }) : {};
  const shown: ShownMessage = { kind, message, items: rest as string[], modal: options.modal === true };
  fake.state.messages.push(shown);
  fake.state.messageShown.fire(shown);
  const answer = fake.state.messageAnswers.shift();
  return Promise.resolve(answer ? (answer(shown) as string | undefined) : undefined);
}

function outputChannel(name: string) {
  const line = (level: string) => (message: string) => {
    const logged = `[${level}] ${name}: ${message}`;
    fake.state.logLines.push(logged);
    fake.state.lineLogged.fire(logged);
  };
  return track(
    {
      name,
      info: line('info'),
      warn: line('warn'),
      error: line('error'),
      debug: line('debug'),
      trace: line('trace'),
      appendLine: line('info'),
      append: line('info'),
      show: () => {},
      hide: () => {},
      clear: () => {},
      dispose: () => {},
    },
    `output channel ${name}`,
  );
}

export const commands = {
  registerCommand(id: string, handler: (...args: unknown[]) => unknown): Disposable {
    if (fake.state.commands.has(id)) throw new Error(`command ${id} already registered`);
    fake.state.commands.set(id, handler);
    return track(new Disposable(() => fake.state.commands.delete(id)), `command ${id}`);
  },
  async executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    const handler = fake.state.commands.get(id);
    if (handler) return handler(...args);
    if (id === 'setContext') {
      fake.state.contextKeys.set(String(args[0]), args[1]);
      return undefined;
    }
    fake.state.builtinCommands.push({ command: id, args });
    if (id === 'vscode.diff') {
      fake.state.tabs.push(openedTab(new TabInputTextDiff(args[0] as Uri, args[1] as Uri), String(args[2])));
      fake.state.tabsChanged.fire();
    }
    if (id === 'vscode.changes') {
      if (fake.state.multiDiffUnavailable) throw new Error("command 'vscode.changes' not found");
      // The multi-file diff editor's input is not in the stable API: tabs show it as an unknown input.
      fake.state.tabs.push(openedTab({ multiDiffResources: args[1] }, String(args[0])));
      fake.state.tabsChanged.fire();
    }
    return undefined;
  },
};

/** A tab as VS Code gives it: the one opened last is the active one. */
function openedTab(input: unknown, label: string): { input: unknown; label: string; readonly isActive: boolean } {
  const tab = {
    input,
    label,
    get isActive(): boolean {
      return fake.state.tabs.at(-1) === tab;
    },
  };
  return tab;
}

export const window = {
  showInformationMessage: (message: string, ...rest: unknown[]) => showMessage('info', message, ...rest),
  showWarningMessage: (message: string, ...rest: unknown[]) => showMessage('warning', message, ...rest),
  showErrorMessage: (message: string, ...rest: unknown[]) => showMessage('error', message, ...rest),
  async showQuickPick(itemsOrPromise: unknown, options: Record<string, unknown> = {}): Promise<unknown> {
    const items = (await itemsOrPromise) as Array<{ label: string }>;
    const question = { items, options };
    fake.state.quickPicks.push(question);
    const answer = fake.state.quickPickAnswers.shift();
    if (!answer) throw new Error(`unexpected QuickPick "${String(options.title)}": no answer scripted`);
    return answer(question);
  },
  async showInputBox(options: Record<string, unknown> = {}): Promise<string | undefined> {
    fake.state.inputBoxes.push(options);
    const answer = fake.state.inputBoxAnswers.shift();
    if (!answer) throw new Error(`unexpected input box "${String(options.title)}": no answer scripted`);
    const value = answer(options) as string | undefined;
    const validate = options.validateInput as ((value: string) => unknown) | undefined;
    const problem = value === undefined ? undefined : validate?.(value);
    if (problem) throw new Error(`the scripted answer fails the input box's validation: ${String(problem)}`);
    return value;
  },
  async showSaveDialog(options: Record<string, unknown> = {}): Promise<unknown> {
    const answer = fake.state.saveDialogAnswers.shift();
    if (!answer) throw new Error(`unexpected save dialog "${String(options.title)}": no answer scripted`);
    return answer(options);
  },
  createOutputChannel: (name: string) => outputChannel(name),
  createStatusBarItem() {
    const item = {
      text: '',
      tooltip: '',
      name: '',
      command: undefined as unknown,
      visible: false,
      show() {
        item.visible = true;
      },
      hide() {
        item.visible = false;
      },
      dispose() {
        item.visible = false;
      },
    };
    fake.state.statusItems.push(item);
    return track(item, 'status bar item');
  },
  registerWebviewViewProvider(
    viewId: string,
    provider: { resolveWebviewView(view: unknown, context: unknown, token: unknown): unknown },
  ): Disposable {
    fake.state.webviewProviders.set(viewId, provider);
    return track(new Disposable(() => fake.state.webviewProviders.delete(viewId)), `webview view provider ${viewId}`);
  },
  async withProgress<Result>(
    options: { title?: string; location?: unknown; cancellable?: boolean },
    task: (progress: unknown, token: unknown) => Thenable<Result>,
  ): Promise<Result> {
    const cancelled = new EventEmitter<void>();
    const token = { isCancellationRequested: false, onCancellationRequested: cancelled.event };
    const record = {
      title: options.title ?? '',
      location: options.location,
      cancellable: options.cancellable === true,
      messages: [] as string[],
      done: false,
      cancel: () => {
        token.isCancellationRequested = true;
        cancelled.fire();
      },
    };
    fake.state.progress.push(record);
    try {
      return await task({ report: (value: { message?: string }) => value.message && record.messages.push(value.message) }, token);
    } finally {
      record.done = true;
    }
  },
  setStatusBarMessage: () => new Disposable(),
  get activeTextEditor() {
    return fake.state.activeTextEditor;
  },
  get visibleTextEditors() {
    return fake.state.activeTextEditor ? [fake.state.activeTextEditor] : [];
  },
  tabGroups: {
    onDidChangeTabs: (listener: () => unknown) => fake.state.tabsChanged.event(listener),
    onDidChangeTabGroups: (listener: () => unknown) => fake.state.tabsChanged.event(listener),
    get all() {
      return [{ tabs: fake.state.tabs }];
    },
    get activeTabGroup() {
      return { activeTab: fake.state.tabs[fake.state.tabs.length - 1] };
    },
    async close(tabs: unknown[]) {
      fake.state.tabs = fake.state.tabs.filter((tab) => !tabs.includes(tab));
      fake.state.tabsChanged.fire();
      return true;
    },
  },
};

function configurationFor(section: string) {
  const full = (key: string) => `${section}.${key}`;
  const { global, workspace: workspaceLayer } = fake.state.settings;
  return {
    get<T>(key: string, defaultValue?: T): T | undefined {
      const name = full(key);
      // Merged as VS Code merges; the extension must not rely on it for restricted settings.
      if (workspaceLayer.has(name)) return workspaceLayer.get(name) as T;
      if (global.has(name)) return global.get(name) as T;
      return (manifest.contributes.configuration.properties[name]?.default as T | undefined) ?? defaultValue;
    },
    inspect<T>(key: string) {
      const name = full(key);
      return {
        key: name,
        defaultValue: manifest.contributes.configuration.properties[name]?.default as T | undefined,
        globalValue: global.get(name) as T | undefined,
        workspaceValue: workspaceLayer.get(name) as T | undefined,
        workspaceFolderValue: undefined as T | undefined,
      };
    },
    async update(key: string, value: unknown, target?: number | boolean) {
      const layer = target === 1 || target === true ? global : workspaceLayer;
      if (value === undefined) layer.delete(full(key));
      else layer.set(full(key), value);
      fake.state.configurationChanged.fire({
        affectsConfiguration: (candidate: string) => full(key) === candidate || full(key).startsWith(`${candidate}.`),
      });
    },
  };
}

export const workspace = {
  get isTrusted() {
    return fake.state.trusted;
  },
  get workspaceFolders() {
    return fake.state.folders.length > 0 ? fake.state.folders : undefined;
  },
  get textDocuments() {
    return fake.state.documents.documents;
  },
  getConfiguration: (section: string) => configurationFor(section),
  onDidChangeConfiguration: (listener: (event: { affectsConfiguration(section: string): boolean }) => unknown) =>
    fake.state.configurationChanged.event(listener),
  onDidGrantWorkspaceTrust: (listener: () => unknown) => fake.state.trustGranted.event(listener),
  registerTextDocumentContentProvider(scheme: string, provider: { provideTextDocumentContent(uri: Uri): string }): Disposable {
    fake.state.contentProviders.set(scheme, provider);
    return track(new Disposable(() => fake.state.contentProviders.delete(scheme)), `content provider ${scheme}`);
  },
  registerFileSystemProvider(scheme: string, provider: FakeFileSystemProvider): Disposable {
    fake.state.documents.providers.set(scheme, provider);
    return track(new Disposable(() => fake.state.documents.providers.delete(scheme)), `file system provider ${scheme}`);
  },
  createFileSystemWatcher(pattern: RelativePattern) {
    // Recorded, so a test can play a change on disk: `fake.state.watchers` (each fires its change listeners).
    const listeners = { create: [] as Array<() => void>, change: [] as Array<() => void>, delete: [] as Array<() => void> };
    const on = (kind: keyof typeof listeners) => (listener: () => void) => (listeners[kind].push(listener), new Disposable());
    const base = pattern.base instanceof Uri ? pattern.base.fsPath : (pattern.base as { uri: Uri }).uri.fsPath;
    fake.state.watchers.push({
      base,
      pattern: pattern.pattern,
      fire: (kind = 'change') => listeners[kind].forEach((listener) => listener()),
    });
    return track({ onDidCreate: on('create'), onDidChange: on('change'), onDidDelete: on('delete'), dispose() {} }, 'file system watcher');
  },
  async openTextDocument(uri: Uri) {
    const provider = fake.state.documents.providers.get(uri.scheme);
    return provider ? fake.state.documents.openThrough(uri, provider) : fake.state.documents.open(uri);
  },
  async applyEdit(edit: WorkspaceEdit) {
    return fake.state.documents.apply(edit);
  },
  asRelativePath(uri: Uri) {
    const folder = fake.state.folders[0];
    return folder ? nodePath.relative(folder.uri.fsPath, uri.fsPath).split(nodePath.sep).join('/') : uri.fsPath;
  },
  fs: diskFileSystem,
};
