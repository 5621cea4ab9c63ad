/**
 * A stand-in for the `vscode` module, just enough for B5 to load dist/extension.js in plain Node and call
 * `activate`: the API surface the extension touches, doing nothing (no UI, no network), with file-system
 * calls served by node:fs. Anything not listed here resolves to a harmless stub, so the benchmark keeps
 * working as the extension grows; it measures our own code, not VS Code's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';

type Listener = (value: unknown) => unknown;

class Disposable {
  static from(...items: Array<{ dispose(): unknown }>): Disposable {
    return new Disposable(() => items.forEach((item) => item.dispose()));
  }
  constructor(private readonly onDispose: () => unknown = () => undefined) {}
  dispose(): void {
    this.onDispose();
  }
}

class EventEmitter {
  private readonly listeners = new Set<Listener>();
  readonly event = (listener: Listener) => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(value: unknown): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

/** An event nobody fires. */
const noEvent = (_listener: Listener) => new Disposable();

class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query = '',
    readonly fragment = '',
  ) {}
  static file(path: string): Uri {
    return new Uri('file', '', nodePath.resolve(path));
  }
  static parse(value: string): Uri {
    const url = new URL(value);
    return new Uri(
      url.protocol.replace(/:$/, ''),
      url.host,
      decodeURIComponent(url.pathname),
      url.search.replace(/^\?/, ''),
      url.hash.replace(/^#/, ''),
    );
  }
  static from(parts: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(parts.scheme, parts.authority ?? '', parts.path ?? '', parts.query ?? '', parts.fragment ?? '');
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(base.scheme, base.authority, nodePath.posix.join(base.path, ...segments), base.query, base.fragment);
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: Partial<{ scheme: string; authority: string; path: string; query: string; fragment: string }>): Uri {
    return new Uri(
      change.scheme ?? this.scheme,
      change.authority ?? this.authority,
      change.path ?? this.path,
      change.query ?? this.query,
      change.fragment ?? this.fragment,
    );
  }
  toString(): string {
    return `${this.scheme}://${this.authority}${this.path}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
  toJSON(): unknown {
    return { scheme: this.scheme, authority: this.authority, path: this.path };
  }
}

class FileSystemError extends Error {
  static FileNotFound(target?: unknown): FileSystemError {
    return new FileSystemError(`file not found: ${String(target)}`, 'FileNotFound');
  }
  static FileExists(target?: unknown): FileSystemError {
    return new FileSystemError(`file exists: ${String(target)}`, 'FileExists');
  }
  static NoPermissions(target?: unknown): FileSystemError {
    return new FileSystemError(`no permissions: ${String(target)}`, 'NoPermissions');
  }
  constructor(
    message: string,
    readonly code = 'Unknown',
  ) {
    super(message);
  }
}

/** A class whose instances just keep their constructor arguments (Range, ThemeIcon, …). */
function valueClass(name: string) {
  return {
    [name]: class {
      readonly args: unknown[];
      constructor(...args: unknown[]) {
        this.args = args;
      }
    },
  }[name];
}

const fileSystem = {
  async readFile(uri: Uri) {
    try {
      return new Uint8Array(await fs.readFile(uri.fsPath));
    } catch {
      throw FileSystemError.FileNotFound(uri);
    }
  },
  async writeFile(uri: Uri, content: Uint8Array) {
    await fs.mkdir(nodePath.dirname(uri.fsPath), { recursive: true });
    await fs.writeFile(uri.fsPath, content);
  },
  async stat(uri: Uri) {
    const info = await fs.stat(uri.fsPath).catch(() => {
      throw FileSystemError.FileNotFound(uri);
    });
    return { type: info.isDirectory() ? 2 : 1, ctime: info.ctimeMs, mtime: info.mtimeMs, size: info.size };
  },
  async readDirectory(uri: Uri) {
    const entries = await fs.readdir(uri.fsPath, { withFileTypes: true }).catch(() => {
      throw FileSystemError.FileNotFound(uri);
    });
    return entries.map((entry) => [entry.name, entry.isDirectory() ? 2 : 1]);
  },
  createDirectory: (uri: Uri) => fs.mkdir(uri.fsPath, { recursive: true }).then(() => undefined),
  delete: (uri: Uri) => fs.rm(uri.fsPath, { recursive: true, force: true }),
  rename: (from: Uri, to: Uri) => fs.rename(from.fsPath, to.fsPath),
};

/** A callable, indexable nothing: what any API the fake does not know about resolves to. */
function stub(): unknown {
  const target = function () {
    return stub();
  };
  return new Proxy(target, {
    get(_target, property) {
      if (property === 'then') return undefined; // not a promise
      if (property === 'dispose') return () => undefined;
      if (property === Symbol.iterator) return function* () {};
      if (property === Symbol.toPrimitive) return () => '';
      return stub();
    },
  });
}

/** Unknown properties of a namespace resolve to stubs. */
function lenient<Shape extends object>(shape: Shape): Shape {
  return new Proxy(shape, { get: (target, property) => (property in target ? target[property as keyof Shape] : stub()) });
}

function outputChannel(name: string) {
  const ignore = () => undefined;
  return lenient({
    name,
    trace: ignore,
    debug: ignore,
    info: ignore,
    warn: ignore,
    error: ignore,
    append: ignore,
    appendLine: ignore,
    replace: ignore,
    clear: ignore,
    show: ignore,
    hide: ignore,
    dispose: ignore,
    logLevel: 2,
    onDidChangeLogLevel: noEvent,
  });
}

export interface FakeVscode {
  module: unknown;
  context: unknown;
  /** Removes the temporary folder that stands in for the workspace and the extension's storage. */
  dispose(): void;
}

/** A fresh fake `vscode` module and an `ExtensionContext` for an extension installed at `extensionRoot`. */
export function createFakeVscode(extensionRoot: string): FakeVscode {
  const scratch = mkdtempSync(nodePath.join(tmpdir(), 'agent-team-activation-'));
  const folder = Uri.file(nodePath.join(scratch, 'workspace'));
  const memento = () => {
    const values = new Map<string, unknown>();
    return {
      get: (key: string, fallback?: unknown) => (values.has(key) ? values.get(key) : fallback),
      update: async (key: string, value: unknown) => void values.set(key, value),
      keys: () => [...values.keys()],
      setKeysForSync: () => undefined,
    };
  };
  const vscode = lenient({
    Uri,
    EventEmitter,
    Disposable,
    FileSystemError,
    Range: valueClass('Range'),
    Position: valueClass('Position'),
    ThemeIcon: valueClass('ThemeIcon'),
    ThemeColor: valueClass('ThemeColor'),
    RelativePattern: valueClass('RelativePattern'),
    WorkspaceEdit: valueClass('WorkspaceEdit'),
    TabInputText: valueClass('TabInputText'),
    TabInputTextDiff: valueClass('TabInputTextDiff'),
    MarkdownString: valueClass('MarkdownString'),
    FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    QuickPickItemKind: { Separator: -1, Default: 0 },
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
    version: '1.100.0',
    env: lenient({
      appRoot: nodePath.join(scratch, 'no-vscode'),
      language: 'en',
      machineId: 'bench',
      openExternal: async () => true,
      clipboard: { readText: async () => '', writeText: async () => undefined },
    }),
    commands: lenient({ registerCommand: () => new Disposable(), executeCommand: async () => undefined, getCommands: async () => [] }),
    window: lenient({
      createOutputChannel: (name: string) => outputChannel(name),
      registerWebviewViewProvider: () => new Disposable(),
      createStatusBarItem: () =>
        lenient({ text: '', tooltip: '', command: undefined, show: () => undefined, hide: () => undefined, dispose: () => undefined }),
      setStatusBarMessage: () => new Disposable(),
      showInformationMessage: async () => undefined,
      showWarningMessage: async () => undefined,
      showErrorMessage: async () => undefined,
      showQuickPick: async () => undefined,
      showInputBox: async () => undefined,
      withProgress: async (_options: unknown, task: (progress: unknown, token: unknown) => unknown) =>
        task({ report: () => undefined }, { isCancellationRequested: false, onCancellationRequested: noEvent }),
      activeTextEditor: undefined,
      visibleTextEditors: [],
      tabGroups: lenient({ all: [], onDidChangeTabs: noEvent, onDidChangeTabGroups: noEvent }),
      onDidChangeActiveTextEditor: noEvent,
    }),
    languages: lenient({ registerCodeLensProvider: () => new Disposable() }),
    workspace: lenient({
      isTrusted: true,
      workspaceFolders: [{ uri: folder, name: 'workspace', index: 0 }],
      textDocuments: [],
      fs: fileSystem,
      getConfiguration: () =>
        lenient({
          get: (_key: string, fallback?: unknown) => fallback,
          has: () => false,
          inspect: () => undefined,
          update: async () => undefined,
        }),
      registerTextDocumentContentProvider: () => new Disposable(),
      registerFileSystemProvider: () => new Disposable(),
      createFileSystemWatcher: () =>
        lenient({ onDidCreate: noEvent, onDidChange: noEvent, onDidDelete: noEvent, dispose: () => undefined }),
      asRelativePath: (value: Uri | string) => (typeof value === 'string' ? value : nodePath.relative(folder.fsPath, value.fsPath)),
      openTextDocument: async () => stub(),
      applyEdit: async () => true,
      onDidGrantWorkspaceTrust: noEvent,
      onDidChangeConfiguration: noEvent,
      onDidChangeWorkspaceFolders: noEvent,
      onDidSaveTextDocument: noEvent,
      onDidChangeTextDocument: noEvent,
    }),
  });
  const context = lenient({
    subscriptions: [] as Array<{ dispose(): unknown }>,
    extensionUri: Uri.file(extensionRoot),
    extensionPath: extensionRoot,
    storageUri: Uri.file(nodePath.join(scratch, 'storage')),
    globalStorageUri: Uri.file(nodePath.join(scratch, 'global-storage')),
    logUri: Uri.file(nodePath.join(scratch, 'logs')),
    extensionMode: 1,
    secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: noEvent },
    globalState: memento(),
    workspaceState: memento(),
    asAbsolutePath: (relative: string) => nodePath.join(extensionRoot, relative),
  });
  return { module: vscode, context, dispose: () => rmSync(scratch, { recursive: true, force: true }) };
}
