/**
 * Role-file problems in VS Code's Problems view, at their file and line: a broken role file says what is
 * wrong where the user looks for such things, not only in a log. Replaced whole at each load of the roles.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import type { RoleDiagnostic } from '../engine/roles/types.js';

export class RoleProblems implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('agentTeam.roles');

  constructor(
    private readonly folder: vscode.Uri,
    /** The user's home, where `~/…` role files are. */
    private readonly home: string,
  ) {}

  show(diagnostics: readonly RoleDiagnostic[]): void {
    const byFile = new Map<string, { uri: vscode.Uri; entries: vscode.Diagnostic[] }>();
    for (const diagnostic of diagnostics) {
      const uri = diagnostic.path.startsWith('~/') ? vscode.Uri.file(path.join(this.home, diagnostic.path.slice(2))) : vscode.Uri.joinPath(this.folder, diagnostic.path);
      const line = Math.max(0, (diagnostic.line ?? 1) - 1);
      const entry = new vscode.Diagnostic(
        new vscode.Range(new vscode.Position(line, 0), new vscode.Position(line, Number.MAX_SAFE_INTEGER)),
        diagnostic.message,
        diagnostic.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
      );
      entry.source = 'Agent Team';
      const file = byFile.get(uri.toString()) ?? { uri, entries: [] };
      file.entries.push(entry);
      byFile.set(uri.toString(), file);
    }
    this.collection.clear();
    for (const { uri, entries } of byFile.values()) this.collection.set(uri, entries);
  }

  dispose(): void {
    this.collection.dispose();
  }
}
