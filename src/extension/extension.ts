import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Filled in by the extension issue.
}

export function deactivate(): void {}
