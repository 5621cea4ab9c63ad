/**
 * A small hand-written fake of the `vscode` module for host tests (`vi.mock('vscode', …)`). Each API the
 * extension calls behaves as VS Code documents it, over the real disk where files are involved; `fake`
 * lets a test set trust, settings and the user's answers, and see what was shown, run and registered.
 * Questions nobody scripted an answer for fail loudly, like the engine's scripted model.
 */
import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { Disposable, EventEmitter, type RelativePattern, type Selection, TabInputTextDiff, Uri } from './fake-basics.js';
import { diskFileSystem } from './fake-file-system.js';
import { FakeDocuments, type FakeFileSystemProvider, type FakeTextDocument, type WorkspaceEdit } from './fake-documents.js';
import { FakeWebviewView } from './fake-webview.js';
import { languageModels } from './fake-language-models.js';

export * from './fake-basics.js';
export * from './fake-language-models.js';
export { WorkspaceEdit } from './fake-documents.js';

type Answer<Question> = (question: Question) => unknown;

/** What the fake needs of a `vscode.CodeLensProvider`. */
export interface FakeCodeLensProvider {
  provideCodeLenses(document: FakeTextDocument): unknown;
  onDidChangeCodeLenses?: (listener: () => unknown) => { dispose(): unknown };
}

/** An editor as the extension reads it: its document's URI, the selection, and scrolling. */
export interface FakeTextEditor {
  document: Pick<FakeTextDocument, 'uri'> & Partial<FakeTextDocument>;
  selection: Selection;
  revealed?: unknown[];
  revealRange?(range: unknown, type?: unknown): void;
}
export interface ShownMessage {
  kind: 'info' | 'warning' | 'error';
  message: string;
  items: string[];
  modal: boolean;
}

const manifest = JSON.parse(readFileSync(nodePath.join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
};

function createState() {
  return {
    trusted: true,
    folders: [] as Array<{ uri: Uri; name: string; index: number }>,
    /** Settings by full key (`agentTeam.baseUrl`), per layer. */
    settings: { global: new Map<string, unknown>(), workspace: new Map<string, unknown>() },
    commands: new Map<string, (...args: unknown[]) => unknown>(),
    /** Commands run that the extension does not register (VS Code's own), with their arguments. */
    builtinCommands: [] as Array<{ command: string; args: unknown[] }>,
    /** Every disposable a registration or factory handed out, and whether it was disposed. */
    created: [] as Array<{ what: string; disposed: boolean }>,
    messages: [] as ShownMessage[],
    messageAnswers: [] as Array<Answer<ShownMessage>>,
    quickPickAnswers: [] as Array<Answer<{ items: Array<{ label: string }>; options: Record<string, unknown> }>>,
    inputBoxAnswers: [] as Array<Answer<Record<string, unknown>>>,
    saveDialogAnswers: [] as Array<Answer<Record<string, unknown>>>,
    quickPicks: [] as Array<{ items: Array<{ label: string }>; options: Record<string, unknown> }>,
    inputBoxes: [] as Array<Record<string, unknown>>,
    logLines: [] as string[],
    webviewProviders: new Map<string, { resolveWebviewView(view: unknown, context: unknown, token: unknown): unknown }>(),
    codeLensProviders: [] as Array<{ selector: { scheme?: string }; provider: FakeCodeLensProvider }>,
    contentProviders: new Map<string, { provideTextDocumentContent(uri: Uri): string | Promise<string>; onDidChange?: unknown }>(),
    statusItems: [] as Array<{ text: string; visible: boolean; command?: unknown }>,
    progress: [] as Array<{
      title: string;
      location: unknown;
      cancellable: boolean;
      messages: string[];
      cancel: () => void;
      done: boolean;
    }>,
    openedExternal: [] as string[],
    clipboard: '',
    /** A translation bundle, as VS Code loads one for the display language: message → translated message. */
    translations: new Map<string, string>(),
    documents: new FakeDocuments(),
    tabs: [] as Array<{ input: unknown; label: string }>,
    activeTextEditor: undefined as FakeTextEditor | undefined,
    /** What each diagnostic collection holds: collection name → file URI → its diagnostics. */
    diagnostics: new Map<string, Map<string, Array<{ message: string; severity: number; line: number; source?: string }>>>(),
    /** `setContext` keys the extension set. */
    contextKeys: new Map<string, unknown>(),
    watchers: [] as Array<{ base: string; pattern: string; fire(kind?: 'create' | 'change' | 'delete'): void }>,
    /** True: `vscode.changes` fails as in a VS Code without the multi-file diff editor. */
    multiDiffUnavailable: false,
    tabsChanged: new EventEmitter<void>(),
    trustGranted: new EventEmitter<void>(),
    configurationChanged: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
    messageShown: new EventEmitter<ShownMessage>(),
    lineLogged: new EventEmitter<string>(),
  };
}

/** The test's handle on the fake. */
export const fake = {
  state: createState(),
  reset(): void {
    this.state = createState();
    languageModels.reset();
  },
  /** Resolves with the first message shown (already or later) that matches. */
  waitForMessage(predicate: (message: ShownMessage) => boolean): Promise<ShownMessage> {
    const found = this.state.messages.find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const subscription = this.state.messageShown.event((message) => {
        if (!predicate(message)) return;
        subscription.dispose();
        resolve(message);
      });
    });
  },
  /** Resolves once a line containing `text` has been written to an output channel. */
  waitForLog(text: string): Promise<void> {
    if (this.state.logLines.some((line) => line.includes(text))) return Promise.resolve();
    return new Promise((resolve) => {
      const subscription = this.state.lineLogged.event((line) => {
        if (!line.includes(text)) return;
        subscription.dispose();
        resolve();
      });
    });
  },
  /** Opens the sidebar: VS Code resolves the registered view with a fresh webview. */
  async resolveView(viewId = 'agentTeam.tasks'): Promise<FakeWebviewView> {
    const provider = this.state.webviewProviders.get(viewId);
    if (!provider) throw new Error(`no webview view provider registered for ${viewId}`);
    const view = new FakeWebviewView();
    await provider.resolveWebviewView(view, { state: undefined }, { isCancellationRequested: false });
    return view;
  },
  grantTrust(): void {
    this.state.trusted = true;
    this.state.trustGranted.fire();
  },
};

function track<T extends { dispose(): unknown }>(disposable: T, what: string): T {
  const record = { what, disposed: false };
  const dispose = disposable.dispose.bind(disposable);
  disposable.dispose = () => {
    record.disposed = true;
    return dispose();
  };
  fake.state.created.push(record);
  return disposable;
}

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

export const languages = {
  registerCodeLensProvider(selector: { scheme?: string }, provider: FakeCodeLensProvider): Disposable {
    const entry = { selector, provider };
    fake.state.codeLensProviders.push(entry);
    return track(
      new Disposable(() => fake.state.codeLensProviders.splice(fake.state.codeLensProviders.indexOf(entry), 1)),
      `code lens provider ${selector.scheme ?? '*'}`,
    );
  },
  createDiagnosticCollection(name: string) {
    const files = new Map<string, Array<{ message: string; severity: number; line: number; source?: string }>>();
    fake.state.diagnostics.set(name, files);
    return {
      name,
      set(uri: Uri, diagnostics: Array<{ message: string; severity: number; range: { start: { line: number } }; source?: string }>) {
        files.set(
          uri.toString(),
          diagnostics.map((entry) => ({
            message: entry.message,
            severity: entry.severity,
            line: entry.range.start.line,
            ...(entry.source ? { source: entry.source } : {}),
          })),
        );
      },
      clear() {
        files.clear();
      },
      dispose() {
        fake.state.diagnostics.delete(name);
      },
    };
  },
};

export const l10n = {
  t(message: string, ...args: unknown[]): string {
    const translated = fake.state.translations.get(message) ?? message;
    return translated.replace(/\{(\d+)\}/g, (whole, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : whole));
  },
};

export const env = {
  appRoot: nodePath.join(__dirname, 'no-vscode-app-root'),
  clipboard: {
    async writeText(text: string) {
      fake.state.clipboard = text;
    },
  },
  async openExternal(uri: Uri) {
    fake.state.openedExternal.push(uri.toString());
    return true;
  },
};
