/**
 * The fake `vscode` module's state: what a test set (trust, settings, answers) and what the extension did
 * (messages shown, commands run, providers registered), and `track`, which notes each disposable.
 */
import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { EventEmitter, type Selection, type Uri } from './fake-basics.js';
import { FakeDocuments, type FakeTextDocument } from './fake-documents.js';
import { FakeWebviewView } from './fake-webview.js';
import { languageModels } from './fake-language-models.js';

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

export const manifest = JSON.parse(readFileSync(nodePath.join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
};

export function createState() {
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

export function track<T extends { dispose(): unknown }>(disposable: T, what: string): T {
  const record = { what, disposed: false };
  const dispose = disposable.dispose.bind(disposable);
  disposable.dispose = () => {
    record.disposed = true;
    return dispose();
  };
  fake.state.created.push(record);
  return disposable;
}
