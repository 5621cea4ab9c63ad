/**
 * The engine's `Workspace` in VS Code: the folder's files as the editor sees them. Listing, searching and
 * path confinement come from the engine's `NodeWorkspace` (the extension host has the folder on its own
 * disk; virtual workspaces are not supported), with two differences that matter in an editor:
 * - an open document with unsaved changes is read (and searched) as the editor holds it, not as on disk;
 * - writing goes through a `WorkspaceEdit` that replaces the whole document, so Undo works and an open
 *   editor is updated in place; the file is then saved unless the user had unsaved changes in it.
 */
import { stat as statFile } from 'node:fs/promises';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import {
  comparePaths,
  compileSearchPattern,
  defaultSearchMaxResults,
  defaultWorkspacePolicy,
  type FileStat,
  type GlobOptions,
  type GlobResult,
  isWithin,
  NodeConfinement,
  NodeWorkspace,
  policyMatcher,
  type PolicyMatcher,
  type ReadOptions,
  type RealPath,
  searchGlobMatcher,
  type SearchMatch,
  type SearchOptions,
  SearchPacer,
  type SearchResult,
  searchText,
  tooLarge,
  toWorkspacePath,
  type Workspace,
  WorkspaceError,
  type WorkspacePolicy,
} from '../engine/index.js';

export interface HostWorkspaceOptions {
  /** Default: `defaultWorkspacePolicy`. */
  policy?: WorkspacePolicy;
  /** ripgrep for `search` (see ripgrep.ts). Default (undefined): `rg` on PATH if any; null: JavaScript search. */
  ripgrepPath?: string | null;
}

export class HostWorkspace implements Workspace {
  readonly root: string;
  private readonly disk: NodeWorkspace;
  private readonly confinement: NodeConfinement;
  private readonly matcher: PolicyMatcher;

  constructor(root: string, options: HostWorkspaceOptions = {}) {
    this.disk = new NodeWorkspace(root, { policy: options.policy, ripgrepPath: options.ripgrepPath });
    this.root = this.disk.root;
    this.confinement = new NodeConfinement(this.root);
    this.matcher = policyMatcher(options.policy ?? defaultWorkspacePolicy);
  }

  async readText(path: string, options: ReadOptions = {}): Promise<string> {
    const relative = toWorkspacePath(this.root, path);
    const document = this.unsavedDocument(relative);
    if (!document) return this.disk.readText(relative, options);
    // Still confined like a disk read: a symlink that leads out of the root is refused here.
    await this.disk.stat(relative);
    const text = document.getText();
    const size = Buffer.byteLength(text, 'utf8');
    if (size > this.matcher.policy.maxFileBytes) throw tooLarge(relative, size, this.matcher.policy.maxFileBytes, 'reading');
    return text;
  }

  async stat(path: string): Promise<FileStat | null> {
    const info = await this.disk.stat(path);
    const document = info?.type === 'file' ? this.unsavedDocument(toWorkspacePath(this.root, path)) : undefined;
    return document && info ? { ...info, size: Buffer.byteLength(document.getText(), 'utf8') } : info;
  }

  realPath(path: string): Promise<RealPath> {
    return this.disk.realPath(path);
  }

  glob(pattern: string, options?: GlobOptions): Promise<GlobResult> {
    return this.disk.glob(pattern, options);
  }

  async search(pattern: string, options: SearchOptions = {}): Promise<SearchResult> {
    const result = await this.disk.search(pattern, options);
    const start = toWorkspacePath(this.root, options.path ?? '');
    const includes = await searchGlobMatcher(options.glob);
    const unsaved = this.unsavedDocuments().filter(
      ({ path }) => isWithin(start, path) && (path === start || (includes(path) && !this.inExcludedDirectory(path))),
    );
    if (unsaved.length === 0) return result;
    // Lines of files with unsaved changes come from the editor's text, not from the disk.
    const replaced = new Set(unsaved.map(({ path }) => path));
    const maxResults = options.maxResults ?? defaultSearchMaxResults;
    const compiled = await compileSearchPattern(pattern, options.caseInsensitive ?? false);
    const pacer = new SearchPacer(options.signal);
    const fromEditors: SearchMatch[] = [];
    for (const { path, document } of unsaved) await searchText(path, document.getText(), compiled, fromEditors, maxResults + 1, pacer);
    const all = [...result.matches.filter((match) => !replaced.has(match.path)), ...fromEditors].sort(
      (a, b) => comparePaths(a.path, b.path) || a.line - b.line,
    );
    return { matches: all.slice(0, maxResults), truncated: result.truncated || all.length > maxResults };
  }

  /**
   * Writes through a `WorkspaceEdit` (so it can be undone), then saves — unless the document already
   * had unsaved changes, which stay the user's to save. Only the change-set apply calls this.
   */
  async writeText(path: string, content: string): Promise<void> {
    const relative = toWorkspacePath(this.root, path);
    const target = await this.confinement.resolveWritable(relative, this.matcher);
    const uri = vscode.Uri.file(target);
    const existing = await statFile(target).catch(() => null);
    if (existing?.isDirectory()) throw new WorkspaceError('invalid', `${relative} is a directory, not a file.`, relative);
    const edit = new vscode.WorkspaceEdit();
    if (!existing) {
      edit.createFile(uri, { contents: Buffer.from(content, 'utf8') });
      if (!(await vscode.workspace.applyEdit(edit))) throw notWritten(relative, 'VS Code refused to create it');
      return;
    }
    const document = await vscode.workspace.openTextDocument(uri);
    const hadUnsavedChanges = document.isDirty;
    const fullRange = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
    edit.replace(uri, fullRange, withoutHiddenBom(content, document.getText()));
    if (!(await vscode.workspace.applyEdit(edit))) throw notWritten(relative, 'VS Code refused the edit');
    if (!hadUnsavedChanges && !(await document.save())) throw notWritten(relative, 'saving it failed');
  }

  /** The open, unsaved document for a workspace-relative path, if any. */
  private unsavedDocument(relative: string): vscode.TextDocument | undefined {
    return this.unsavedDocuments().find((entry) => entry.path === relative)?.document;
  }

  unsavedFiles(): Array<{ path: string; content: string }> {
    return this.unsavedDocuments().map(({ path, document }) => ({ path, content: document.getText() }));
  }

  private unsavedDocuments(): Array<{ path: string; document: vscode.TextDocument }> {
    const result: Array<{ path: string; document: vscode.TextDocument }> = [];
    for (const document of vscode.workspace.textDocuments) {
      if (!document.isDirty || document.uri.scheme !== 'file') continue;
      const relative = nodePath.relative(this.root, document.uri.fsPath);
      if (relative === '' || relative.startsWith('..') || nodePath.isAbsolute(relative)) continue;
      result.push({ path: relative.split(nodePath.sep).join('/'), document });
    }
    return result;
  }

  private inExcludedDirectory(path: string): boolean {
    return path
      .split('/')
      .slice(0, -1)
      .some((name) => this.matcher.isExcludedDirectory(name));
  }
}

/** VS Code hides a file's BOM from the document text and keeps it on save; a BOM in the content would double it. */
function withoutHiddenBom(content: string, documentText: string): string {
  return content.startsWith('\uFEFF') && !documentText.startsWith('\uFEFF') ? content.slice(1) : content;
}

function notWritten(path: string, why: string): WorkspaceError {
  return new WorkspaceError(
    'conflict',
    `${path} was not written: ${why}. Nothing was changed; try again, or apply the change by hand.`,
    path,
  );
}
