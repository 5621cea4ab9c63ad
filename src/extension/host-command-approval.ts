/**
 * How the user allows a command an agent wants to run in VS Code: the task waits (its row says
 * `waiting`, its detail view shows the command with Allow once / Always for this workspace / Deny), and a
 * notification offers the same three. "Always" remembers the exact command for this workspace, in the
 * extension's workspace storage (never in the folder's settings, which the folder's authors control).
 * A stop, or the task's end, withdraws the request.
 */
import * as vscode from 'vscode';
import type { CommandApproval, CommandApprovalRequest, CommandDecision } from '../engine/commands/command-host.js';
import { StoppedError, stopReasonOf } from '../engine/errors.js';
import { onAbort } from '../engine/util/abort.js';

/** What the user chose: the webview's buttons send these. */
export type CommandChoice = 'once' | 'always' | 'deny';

/** Where "Always for this workspace" commands are kept (`ExtensionContext.workspaceState`). */
export const workspaceCommandsKey = 'agentTeam.allowedCommands';

interface PendingRequest {
  request: CommandApprovalRequest;
  resolve(choice: CommandChoice): void;
}

/** Commands longer than this are cut in the notification (the detail view shows them whole). */
const notificationCharacters = 200;

export class HostCommandApproval implements CommandApproval {
  private readonly pending = new Map<string, PendingRequest>();

  constructor(private readonly workspaceState: vscode.Memento) {}

  request(request: CommandApprovalRequest, signal: AbortSignal): Promise<CommandDecision> {
    if (signal.aborted) return Promise.reject(new StoppedError(stopReasonOf(signal)));
    // One request per task at a time: an earlier one still open is denied.
    this.pending.get(request.taskId)?.resolve('deny');
    return new Promise<CommandDecision>((resolve, reject) => {
      const removeAbort = onAbort(signal, () => {
        this.pending.delete(request.taskId);
        reject(new StoppedError(stopReasonOf(signal)));
      });
      this.pending.set(request.taskId, {
        request,
        resolve: (choice) => {
          removeAbort();
          this.pending.delete(request.taskId);
          if (choice === 'always') void this.remember(request.command);
          resolve(choice === 'deny' ? 'deny' : 'allow');
        },
      });
      void this.notify(request);
    });
  }

  /** Decides the command `taskId` waits on; false when it waits on none. */
  decide(taskId: string, choice: CommandChoice): boolean {
    const pending = this.pending.get(taskId);
    if (!pending) return false;
    pending.resolve(choice);
    return true;
  }

  /** Commands the user allowed always for this workspace. */
  allowedForWorkspace(): string[] {
    const stored = this.workspaceState.get<unknown>(workspaceCommandsKey);
    return Array.isArray(stored) ? stored.filter((item): item is string => typeof item === 'string') : [];
  }

  /** Keeps only these of the commands allowed for this workspace; returns the ones forgotten. */
  async keepOnly(commands: readonly string[]): Promise<string[]> {
    const known = this.allowedForWorkspace();
    const kept = known.filter((command) => commands.includes(command));
    await this.workspaceState.update(workspaceCommandsKey, kept.length > 0 ? kept : undefined);
    return known.filter((command) => !kept.includes(command));
  }

  private async remember(command: string): Promise<void> {
    const known = this.allowedForWorkspace();
    if (!known.includes(command)) await this.workspaceState.update(workspaceCommandsKey, [...known, command]);
  }

  private async notify(request: CommandApprovalRequest): Promise<void> {
    const command = request.command.length > notificationCharacters ? `${request.command.slice(0, notificationCharacters - 1)}…` : request.command;
    const purpose = request.description ? ` (${request.description})` : '';
    const allowOnce = vscode.l10n.t('Allow once');
    const always = vscode.l10n.t('Always for this workspace');
    const deny = vscode.l10n.t('Deny');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('Agent Team: {0} ({1}) wants to run "{2}"{3} in a scratch copy of the workspace.', request.role, request.taskId, command, purpose),
      allowOnce,
      always,
      deny,
    );
    // Dismissed: the question stays on the task's row and detail view.
    if (choice === undefined || this.pending.get(request.taskId)?.request !== request) return;
    this.decide(request.taskId, choice === allowOnce ? 'once' : choice === always ? 'always' : 'deny');
  }
}
