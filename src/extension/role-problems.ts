/**
 * Role-file and workflow-file problems in VS Code's Problems view, at their file and line: a broken file
 * says what is wrong where the user looks for such things, not only in a log. Each kind is replaced whole
 * at each load of its files.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import type { RoleDiagnostic, WorkflowProblem } from '../engine/index.js';

type Problem = Pick<RoleDiagnostic, 'path' | 'severity' | 'message' | 'line'>;

export class RoleProblems implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('agentTeam.roles');
  private roles: readonly Problem[] = [];
  private workflows: readonly Problem[] = [];

  constructor(
    private readonly folder: vscode.Uri,
    /** The user's home, where `~/…` role files are. */
    private readonly home: string,
  ) {}

  show(diagnostics: readonly RoleDiagnostic[]): void {
    this.roles = diagnostics;
    this.render();
  }

  /** A workflow's problems are all errors: such a workflow does not run. */
  showWorkflows(problems: readonly WorkflowProblem[]): void {
    this.workflows = problems.map((problem) => ({
      path: problem.file,
      severity: 'error',
      message: problem.field ? `${problem.field}: ${problem.message}` : problem.message,
      ...(problem.line === undefined ? {} : { line: problem.line }),
    }));
    this.render();
  }

  private render(): void {
    const diagnostics = [...this.roles, ...this.workflows];
    const byFile = new Map<string, { uri: vscode.Uri; entries: vscode.Diagnostic[] }>();
    for (const diagnostic of diagnostics) {
      const uri = diagnostic.path.startsWith('~/')
        ? vscode.Uri.file(path.join(this.home, diagnostic.path.slice(2)))
        : vscode.Uri.joinPath(this.folder, diagnostic.path);
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
