/** What the window hands an engine session for one folder (engine-session.ts). */
import type * as vscode from 'vscode';
import type { Clock, ConversationStore, EngineCore, ModelPrice } from '../engine/index.js';
import type { HostCommandApproval } from './host-command-approval.js';
import type { HostWorkspace } from './host-workspace.js';
import type { RemoteAgentTokens } from './remote-agent-tokens.js';
import type { HostWebApproval } from './web-approval.js';

export interface EngineSessionOptions {
  folder: vscode.WorkspaceFolder;
  /** The task manager and change sets the host built at activation (`createEngineCore`); the engine owns them from here. */
  core: EngineCore;
  /** The folder's files as the editor sees them. */
  workspace: HostWorkspace;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error'>;
  /** Measures the model requests' timeouts. Default `systemClock`. */
  clock?: Clock;
  /** Where keys and base URLs fall back to. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Who is asked about commands (one for the extension's life: the sidebar shows what it waits on). */
  commandApproval: HostCommandApproval;
  /** The API keys known to the extension: commands never get them. Default: none. */
  secretValues?(): string[];
  /** Which sites agents read, and who is asked about others (one for the extension's life). */
  webApproval: HostWebApproval;
  /** Stored tokens of remote roles, over the environment. Default: the environment only. */
  remoteTokens?: RemoteAgentTokens;
  /** Where runs' conversations are kept (the window's run history). Default: in memory. */
  conversations?: ConversationStore;
  /** The extension's global storage folder, beside which VS Code keeps the user's prompts folder. Default: none read. */
  globalStorage?: vscode.Uri;
  /** The models' prices, to refuse a money budget over an unpriced model. Default: no check. */
  priceOf?: (model: string) => ModelPrice | undefined;
}
