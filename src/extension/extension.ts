/**
 * Agent Team's VS Code entry point: the activation shell. Activation only registers what package.json
 * contributes (the commands, the view, the proposal documents and their lenses, @team and the delegate tool), each backed
 * by the core (extension-core.ts: the engine, zod, the task history, the providers), which is loaded on
 * the first command, when the view first opens, or when anything else is first asked of it. So VS Code
 * compiles none of that to activate the extension (B5 in docs/performance.md). Never activated on `*`.
 */
import * as vscode from 'vscode';
import { commandIds, delegateToolName, proposalScheme, tasksViewId, teamParticipantId } from './contribution-ids.js';
import type { ExtensionCore } from './extension-core.js';
import { importCore } from './core-code-cache.js';
import type { HostOptions } from './host.js';

let core: Promise<ExtensionCore> | undefined;
let loaded: ExtensionCore | undefined;
let coreLoader: (() => Promise<ExtensionCore>) | undefined;

export function activate(context: vscode.ExtensionContext, options: HostOptions = {}): void {
  const proposalsChanged = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  const lensesChanged = new vscode.EventEmitter<void>();
  const loadCore = (): Promise<ExtensionCore> =>
    (core ??= importCore(context.globalStorageUri.scheme === 'file' ? context.globalStorageUri.fsPath : undefined)
      .then(({ core: module, saveCodeCache }) => {
        const started = module.startCore(context, options);
        loaded = started;
        // After this turn: the first command or the view goes on first; the cache is written once per build.
        setImmediate(saveCodeCache);
        // The proposal documents and their lenses were registered before the core existed: their changes go on from here.
        context.subscriptions.push(
          started.host.proposals.onDidChangeFile((changes) => proposalsChanged.fire(changes)),
          started.host.hunkLenses.onDidChangeCodeLenses(() => lensesChanged.fire()),
          started.host.checksLenses.onDidChangeCodeLenses(() => lensesChanged.fire()),
        );
        return started;
      })
      .catch((error: unknown) => {
        // Not kept: the next use tries again rather than failing for the rest of the window.
        core = undefined;
        throw error;
      }));
  coreLoader = loadCore;
  context.subscriptions.push(
    proposalsChanged,
    lensesChanged,
    ...Object.values(commandIds).map((id) =>
      vscode.commands.registerCommand(id, async (...args: unknown[]) => (await loadCore()).commands[id]?.(...args)),
    ),
    vscode.window.registerWebviewViewProvider(tasksViewId, {
      resolveWebviewView: async (view) => (await loadCore()).host.sidebar.resolveWebviewView(view),
    }),
    vscode.workspace.registerFileSystemProvider(proposalScheme, proposalFiles(loadCore, proposalsChanged.event), { isCaseSensitive: true }),
    vscode.languages.registerCodeLensProvider(
      { scheme: proposalScheme },
      {
        onDidChangeCodeLenses: lensesChanged.event,
        provideCodeLenses: async (document) => {
          const { host } = await loadCore();
          await host.historyLoaded;
          // The checks' verdict on the first line, above the file's Accept/Reject lenses.
          return [...host.checksLenses.provideCodeLenses(document), ...host.hunkLenses.provideCodeLenses(document)];
        },
      },
    ),
    ...registerLanguageModelFeatures(context, loadCore),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (!loaded) return;
      loaded.host.log.info('The folder is trusted now: agents can run.');
      void loaded.host.setup.refresh();
    }),
  );
}

/** The proposal documents (the proposed side editable, see review/proposal-file-system.ts), served by the core. */
function proposalFiles(
  loadCore: () => Promise<ExtensionCore>,
  onDidChangeFile: vscode.Event<vscode.FileChangeEvent[]>,
): vscode.FileSystemProvider {
  // After the saved proposals are read back, so a diff restored with the window finds its proposal.
  const files = async () => {
    const { host } = await loadCore();
    await host.historyLoaded;
    return host.proposals;
  };
  const refuse = (uri: vscode.Uri) => {
    throw vscode.FileSystemError.NoPermissions(uri);
  };
  return {
    onDidChangeFile,
    watch: () => new vscode.Disposable(() => undefined),
    stat: async (uri) => (await files()).stat(uri),
    readFile: async (uri) => (await files()).readFile(uri),
    writeFile: async (uri, content) => (await files()).writeFile(uri, content),
    readDirectory: () => [],
    createDirectory: refuse,
    delete: refuse,
    rename: refuse,
  };
}

/** `@team` in the Chat view and the `agentTeam_delegate` tool, where this VS Code has chat at all. */
function registerLanguageModelFeatures(context: vscode.ExtensionContext, loadCore: () => Promise<ExtensionCore>): vscode.Disposable[] {
  const registered: vscode.Disposable[] = [];
  if (typeof vscode.chat?.createChatParticipant === 'function') {
    const participant = vscode.chat.createChatParticipant(teamParticipantId, async (request, chatContext, stream, token) =>
      (await loadCore()).chatHandler(request, chatContext, stream, token),
    );
    participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'agent-team.svg');
    registered.push(participant);
  }
  if (typeof vscode.lm?.registerTool === 'function') {
    registered.push(
      vscode.lm.registerTool(delegateToolName, {
        prepareInvocation: async (invocation) =>
          (await loadCore()).delegateTool.prepareInvocation(invocation as vscode.LanguageModelToolInvocationPrepareOptions<never>),
        invoke: async (invocation, token) =>
          (await loadCore()).delegateTool.invoke(invocation as vscode.LanguageModelToolInvocationOptions<never>, token),
      }),
    );
  }
  return registered;
}

/** The core, once something has loaded it. */
export function loadedCore(): ExtensionCore | undefined {
  return loaded;
}

/** The core, loaded now if nothing has yet (tests and the activation benchmark's first-use figure). */
export function loadCore(): Promise<ExtensionCore> {
  if (!coreLoader) return Promise.reject(new Error('Agent Team is not activated.'));
  return coreLoader();
}

/** Stops running tasks (they are kept in the history as stopped) and saves, before the window closes. */
export async function deactivate(): Promise<void> {
  const loading = core;
  core = undefined;
  loaded = undefined;
  coreLoader = undefined;
  const started = await loading?.catch(() => undefined);
  await started?.host.close();
}
