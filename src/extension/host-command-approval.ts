/**
 * How the user allows a command an agent wants to run in VS Code: the task waits (its row says
 * `waiting`, its detail view shows the whole command, how it would run — in the OS sandbox or not, with
 * the network or not — and Allow once / Always for this workspace / Deny), and a notification offers the
 * same when the command fits in it whole; a longer one (or one padded with spaces, which could push a
 * dangerous tail out of sight) is only offered for review in the detail view: no surface approves what
 * it does not show. "Always" remembers the exact command for this workspace, in the extension's
 * workspace storage (never in the folder's settings, which the folder's authors control), and is read
 * back as a literal, never as a pattern. Without a sandbox "Always" is not offered. A stop, or the
 * task's end, withdraws the request.
 */
import * as vscode from 'vscode';
import {
  type CommandApproval,
  type CommandApprovalRequest,
  type CommandDecision,
  type CommandIsolation,
  literalPattern,
  onAbort,
  StoppedError,
  stopReasonOf,
} from '../engine/index.js';

/** What the user chose: the webview's buttons send these. */
export type CommandChoice = 'once' | 'always' | 'deny';

/** Where "Always for this workspace" commands are kept (`ExtensionContext.workspaceState`). */
export const workspaceCommandsKey = 'agentTeam.allowedCommands';

interface PendingRequest {
  request: CommandApprovalRequest;
  resolve(choice: CommandChoice): void;
}

/** Commands longer than this are not offered for approval in a notification, only in the detail view. */
const notificationCharacters = 160;

export class HostCommandApproval implements CommandApproval {
  private readonly pending = new Map<string, PendingRequest>();
  private readonly listeners = new Set<(taskId: string) => void>();

  constructor(private readonly workspaceState: vscode.Memento) {}

  request(request: CommandApprovalRequest, signal: AbortSignal): Promise<CommandDecision> {
    if (signal.aborted) return Promise.reject(new StoppedError(stopReasonOf(signal)));
    // One request per task at a time: an earlier one still open is denied.
    this.pending.get(request.taskId)?.resolve('deny');
    return new Promise<CommandDecision>((resolve, reject) => {
      const removeAbort = onAbort(signal, () => {
        this.pending.delete(request.taskId);
        this.changed(request.taskId);
        reject(new StoppedError(stopReasonOf(signal)));
      });
      this.pending.set(request.taskId, {
        request,
        resolve: (choice) => {
          removeAbort();
          this.pending.delete(request.taskId);
          this.changed(request.taskId);
          // Without a sandbox every command asks every time: "Always" counts as once.
          if (choice === 'always' && request.isolation.offerAlways) void this.remember(request.command);
          resolve(choice === 'deny' ? 'deny' : 'allow');
        },
      });
      this.changed(request.taskId);
      void this.notify(request);
    });
  }

  /** How the command `taskId` waits on would run, while it waits on one. */
  isolationOf(taskId: string): CommandIsolation | undefined {
    return this.pending.get(taskId)?.request.isolation;
  }

  /** Hears of each task whose pending command came or went (the sidebar shows how it would run). */
  onChange(listener: (taskId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Decides the command `taskId` waits on; false when it waits on none. */
  decide(taskId: string, choice: CommandChoice): boolean {
    const pending = this.pending.get(taskId);
    if (!pending) return false;
    pending.resolve(choice);
    return true;
  }

  /** The commands allowed always for this workspace, as patterns that allow each of them and nothing else. */
  allowedPatternsForWorkspace(): string[] {
    return this.allowedForWorkspace().map(literalPattern);
  }

  /** Commands the user allowed always for this workspace, as they were run. */
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

  private changed(taskId: string): void {
    for (const listener of this.listeners) listener(taskId);
  }

  private async notify(request: CommandApprovalRequest): Promise<void> {
    const purpose = request.description ? ` (${request.description})` : '';
    const review = vscode.l10n.t('Review the command');
    if (!fitsWhole(request.command)) {
      // Shown cut, a command could hide its tail behind the buttons: it is approved where it is shown whole.
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Agent Team: {0} ({1}) wants to run a command of {2} characters{3}. Review it whole in its detail view before allowing it.',
          request.role,
          request.taskId,
          request.command.length,
          purpose,
        ),
        review,
      );
      if (choice === review) await vscode.commands.executeCommand('agentTeam.showTask', request.taskId);
      return;
    }
    const allowOnce = vscode.l10n.t('Allow once');
    const always = vscode.l10n.t('Always for this workspace');
    const deny = vscode.l10n.t('Deny');
    const buttons = request.isolation.offerAlways ? [allowOnce, always, deny] : [allowOnce, deny];
    // Outside a sandbox the question is a warning: the command would run as the user.
    const show = (message: string, ...items: string[]) =>
      request.isolation.kind === 'sandbox'
        ? vscode.window.showInformationMessage(message, ...items)
        : vscode.window.showWarningMessage(message, ...items);
    const choice = await show(
      vscode.l10n.t(
        'Agent Team: {0} ({1}) wants to run "{2}"{3} in a scratch copy of the workspace. {4}',
        request.role,
        request.taskId,
        request.command,
        purpose,
        request.isolation.summary,
      ),
      ...buttons,
    );
    // Dismissed: the question stays on the task's row and detail view.
    if (choice === undefined || this.pending.get(request.taskId)?.request !== request) return;
    this.decide(request.taskId, choice === allowOnce ? 'once' : choice === always ? 'always' : 'deny');
  }
}

/**
 * True when a notification shows the command whole and as it runs: short, one line of printable ASCII
 * (no Unicode space, invisible or reordering character), no run of spaces to hide a tail behind.
 */
function fitsWhole(command: string): boolean {
  return command.length <= notificationCharacters && /^[\x20-\x7e]+$/.test(command) && !/ {3,}/.test(command);
}
