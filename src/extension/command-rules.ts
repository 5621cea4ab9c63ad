/**
 * Who allows agents' commands in VS Code, and how they run: the user's settings (never a folder's: a
 * folder must not loosen the boundary around its own commands), the answers given in the sidebar, and
 * Restricted Mode, where none runs.
 */
import * as vscode from 'vscode';
import type { EngineHost } from '../engine/index.js';
import { readSettings } from './configuration.js';
import type { HostCommandApproval } from './host-command-approval.js';

export function commandRules(approval: HostCommandApproval): EngineHost['commands'] {
  return {
    // Running commands chosen by model output in a folder the user does not trust is what Restricted Mode exists to prevent.
    refusal: () =>
      vscode.workspace.isTrusted
        ? undefined
        : 'Not run: commands do not run in Restricted Mode. The user must trust this workspace first (Manage Workspace Trust).',
    allowedPatterns: () => [...readSettings(vscode.workspace.isTrusted).allowedCommands, ...approval.allowedPatternsForWorkspace()],
    approval,
    howToAllow: 'The user allows commands with the setting agentTeam.allowedCommands.',
    sandbox: () => readSettings(vscode.workspace.isTrusted).sandbox,
    networkForAll: () => readSettings(vscode.workspace.isTrusted).commandNetwork === 'on',
    networkPatterns: () => readSettings(vscode.workspace.isTrusted).networkCommands,
    passNames: () => readSettings(vscode.workspace.isTrusted).passEnvironment,
    howToRunUnsandboxed:
      'The user can turn the sandbox off with the setting agentTeam.sandbox ("off") to have commands allowed by their patterns again.',
  };
}
