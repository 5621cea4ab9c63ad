/**
 * What the sidebar's empty state and the walkthrough need to guide a first run: whether a model is set up,
 * which one, a local server found on this machine, and Restricted Mode. Kept current as settings, keys
 * and trust change; the webview only ever learns `SetupState` (no key, nor whether one is known).
 */
import * as vscode from 'vscode';
import type { SetupState } from '../shared/protocol.js';
import type { ApiKeyStore } from './api-keys.js';
import { configurationSection, readSettings } from './configuration.js';
import type { LocalServer } from './local-server.js';
import { displayModel, type ModelSetup, resolveModelSetup } from './model-setup.js';
import { vscodeLmProvider } from './language-model/language-model-errors.js';
import { DisposableStore } from '../engine/index.js';

/** True once a model can run (with a key, a base URL, or one of VS Code's own): the walkthrough's key step is done. */
export const modelConfiguredKey = 'agentTeam.modelConfigured';

export interface SetupServiceOptions {
  keys: ApiKeyStore;
  /** Looks for a local OpenAI-compatible server; called at most once per activation. */
  probeLocalServer: () => Promise<LocalServer | undefined>;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
  /** Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
}

export class SetupService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SetupState>();
  private readonly subscriptions = new DisposableStore();
  private localServer: LocalServer | undefined;
  private probe: Promise<void> | undefined;
  private lastState: string | undefined;

  readonly onDidChange = this.changed.event;

  constructor(private readonly options: SetupServiceOptions) {
    const refresh = () => void this.refresh();
    this.subscriptions.addAll(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(configurationSection) || event.affectsConfiguration('workbench.tree.indent')) refresh();
      }),
      options.keys.onDidChange(refresh),
      vscode.workspace.onDidGrantWorkspaceTrust(refresh),
    );
    // Copilot signing in, or a model extension installed, can make a run possible without a key.
    if (vscode.lm?.onDidChangeChatModels) this.subscriptions.add(vscode.lm.onDidChangeChatModels(refresh));
  }

  /** The model settings as they stand now (trust-filtered settings, key, per-role overrides). */
  modelSetup(): Promise<ModelSetup> {
    return resolveModelSetup(readSettings(vscode.workspace.isTrusted), this.options.keys, this.options.environment ?? process.env);
  }

  async state(): Promise<SetupState> {
    const setup = await this.modelSetup();
    const state: SetupState = { modelConfigured: setup.configured, restricted: !vscode.workspace.isTrusted };
    if (setup.providerChosen || setup.configured) {
      state.provider = setup.provider;
      state.model = displayModel(setup);
    }
    if (!setup.configured && this.localServer) state.localServerUrl = this.localServer.url;
    const indent = vscode.workspace.getConfiguration('workbench.tree').get<unknown>('indent');
    if (typeof indent === 'number' && Number.isInteger(indent) && indent >= 0 && indent <= 40) state.treeIndent = indent;
    const offered = setup.chatModels[0];
    if (!setup.configured && offered) state.languageModel = offered.name || offered.id;
    return state;
  }

  /** Recomputes the state and tells listeners when it changed. */
  async refresh(): Promise<SetupState> {
    const state = await this.state();
    const serialized = JSON.stringify(state);
    if (serialized !== this.lastState) {
      this.lastState = serialized;
      // The walkthrough's "Set your API key" step is done once any model can run, a key-free one included.
      void vscode.commands.executeCommand('setContext', modelConfiguredKey, state.modelConfigured);
      this.changed.fire(state);
    }
    return state;
  }

  /**
   * Looks for a local server once, in the background, when no model is set up (never blocks the caller,
   * never at activation: the sidebar calls this when it is first shown).
   */
  probeOnce(): void {
    this.probe ??= (async () => {
      if ((await this.modelSetup()).configured) return;
      this.localServer = await this.options.probeLocalServer();
      if (this.localServer) {
        this.options.log.info(`Found an OpenAI-compatible server at ${this.localServer.url} (${this.localServer.models.length} models).`);
        await this.refresh();
      }
    })().catch((error: unknown) => this.options.log.warn(`Looking for a local model server failed: ${String(error)}`));
  }

  /** The server `probeOnce` found, if any. */
  get detectedLocalServer(): LocalServer | undefined {
    return this.localServer;
  }

  /** Points the user's settings at the detected local server. Returns false when there is none. */
  async useLocalServer(): Promise<boolean> {
    const server = this.localServer;
    if (!server) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'No local model server was found. Start Ollama or LM Studio and reload the window, or set agentTeam.baseUrl to your server\u2019s address.',
        ),
      );
      return false;
    }
    const configuration = vscode.workspace.getConfiguration(configurationSection);
    const target = vscode.ConfigurationTarget.Global;
    await configuration.update('provider', 'openai', target);
    await configuration.update('baseUrl', server.url, target);
    const current = readSettings(vscode.workspace.isTrusted).model;
    const model = server.models.includes(current) ? current : server.models[0];
    if (model !== undefined && model !== current) await configuration.update('model', model, target);
    if (model === undefined) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'The server at {0} lists no models. Download one (for Ollama: "ollama pull qwen2.5-coder"), then set agentTeam.model to its name.',
          server.url,
        ),
      );
    } else {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Agent Team now uses the local server at {0} with the model {1}.', server.url, model),
      );
    }
    await this.refresh();
    return true;
  }

  /** Makes VS Code's own model (the first it offers, or the one `agentTeam.model` names) the one in use. */
  async useLanguageModel(): Promise<boolean> {
    const setup = await this.modelSetup();
    const model = setup.chatModels.find((each) => each.id === setup.model) ?? setup.chatModels[0];
    if (!model) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'VS Code offers no language model. Install or sign in to a model provider such as GitHub Copilot, or set an API key.',
        ),
      );
      return false;
    }
    const configuration = vscode.workspace.getConfiguration(configurationSection);
    await configuration.update('provider', vscodeLmProvider, vscode.ConfigurationTarget.Global);
    await configuration.update('model', model.id, vscode.ConfigurationTarget.Global);
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Agent Team now uses {0} from VS Code (no key needed).', model.name || model.id),
    );
    await this.refresh();
    return true;
  }

  dispose(): void {
    this.subscriptions.dispose();
  }
}
