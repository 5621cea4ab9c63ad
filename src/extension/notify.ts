/**
 * Notifications with follow-up actions that never block the caller: a command returns at once, and the
 * action runs if and when the user clicks it. (A command awaiting a toast would hang
 * `executeCommand` until the user dismissed it.)
 */
import * as vscode from 'vscode';

export interface NotificationAction {
  title: string;
  run: () => unknown;
}

type Show = (message: string, ...items: string[]) => Thenable<string | undefined>;

function show(kind: Show, message: string, actions: NotificationAction[]): void {
  void kind(message, ...actions.map((action) => action.title)).then((choice) => {
    const action = actions.find((candidate) => candidate.title === choice);
    if (action) void Promise.resolve(action.run()).catch(() => undefined);
  });
}

export function showError(message: string, ...actions: NotificationAction[]): void {
  show((text, ...items) => vscode.window.showErrorMessage(text, ...items), message, actions);
}

export function showWarning(message: string, ...actions: NotificationAction[]): void {
  show((text, ...items) => vscode.window.showWarningMessage(text, ...items), message, actions);
}

export function showInfo(message: string, ...actions: NotificationAction[]): void {
  show((text, ...items) => vscode.window.showInformationMessage(text, ...items), message, actions);
}

/** A modal question; resolves true when the user chose `confirm`. */
export async function confirmModal(message: string, confirm: string, detail?: string): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(message, { modal: true, ...(detail ? { detail } : {}) }, confirm);
  return choice === confirm;
}

/** Runs a command as an action (for buttons such as "Set API Key"). */
export function commandAction(title: string, command: string, ...args: unknown[]): NotificationAction {
  return { title, run: () => vscode.commands.executeCommand(command, ...args) };
}
