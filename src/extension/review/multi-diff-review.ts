/**
 * A change set in VS Code's multi-file diff editor (`vscode.changes`), as the Source Control view shows a
 * commit: every pending file of a task's tree in one scrollable editor. After each decision the editor is
 * opened again with what is still pending (closed when nothing is), and the context key
 * `agentTeam.changesReviewActive` tells the editor title when one of ours is in front, for Accept All /
 * Reject All. Where the command is missing (an older VS Code) `show` says so and the caller falls back.
 */
import * as vscode from 'vscode';
import { DisposableStore, type FileChangeSnapshot } from '../../engine/index.js';

export interface ReviewEntry {
  taskId: string;
  role: string;
  file: FileChangeSnapshot;
}

export interface MultiDiffReviewOptions {
  /** The pending files of a task and its descendants. */
  pendingInTree: (taskId: string) => ReviewEntry[];
  /** The diff's left side for a file: the file on disk when it still matches the task's base, else the base. */
  leftSide: (entry: ReviewEntry) => Promise<vscode.Uri>;
  rightSide: (entry: ReviewEntry) => vscode.Uri;
  /** The workspace file a proposal is about (the multi-diff editor labels each diff with it). */
  workspaceUri: (path: string) => vscode.Uri | undefined;
  /** The task's role, for the editor's title. */
  roleOf: (taskId: string) => string | undefined;
  /** True when `taskId` is `rootId` or below it. */
  isWithin: (taskId: string, rootId: string) => boolean;
}

export const changesReviewActiveKey = 'agentTeam.changesReviewActive';

export class MultiDiffReviews implements vscode.Disposable {
  /** Open reviews: the task whose tree they show → their editor's title. */
  private readonly open = new Map<string, string>();
  private readonly subscriptions = new DisposableStore();
  private active = false;

  constructor(private readonly options: MultiDiffReviewOptions) {
    this.subscriptions.addAll(
      vscode.window.tabGroups.onDidChangeTabs(() => this.updateContext()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.updateContext()),
    );
  }

  /** Opens the tree's pending files in the multi-file diff editor; false when this VS Code cannot. */
  async show(rootId: string): Promise<boolean> {
    const entries = this.options.pendingInTree(rootId);
    const title = this.titleFor(rootId);
    const resources: Array<[vscode.Uri, vscode.Uri, vscode.Uri]> = [];
    for (const entry of entries) {
      const right = this.options.rightSide(entry);
      resources.push([this.options.workspaceUri(entry.file.path) ?? right, await this.options.leftSide(entry), right]);
    }
    // Known before it opens: the tab's own change event then sets the context key, so Accept is offered
    // as soon as the review is in front, not only once the command that opened it has returned.
    const previous = this.open.get(rootId);
    this.open.set(rootId, title);
    try {
      await vscode.commands.executeCommand('vscode.changes', title, resources);
    } catch {
      if (previous === undefined) this.open.delete(rootId);
      else this.open.set(rootId, previous);
      this.updateContext();
      return false;
    }
    // Looked up after the new one opened: a tab object taken before may be out of date by now (the old
    // tab pinned by a click, say) and closing it would do nothing, leaving two reviews of one run.
    const stale = this.tabsTitled(title).filter((tab) => !tab.isActive);
    if (stale.length > 0) await vscode.window.tabGroups.close(stale, true);
    this.updateContext();
    return true;
  }

  /** Shows what a revision changed, each file against its previous proposal (see revisions.ts). */
  async showRevision(taskId: string, resources: Array<[vscode.Uri, vscode.Uri, vscode.Uri]>): Promise<void> {
    const title = revisionTitle(this.options.roleOf(taskId) ?? 'task', taskId);
    const stale = this.tabsTitled(title);
    await vscode.commands.executeCommand('vscode.changes', title, resources);
    if (stale.length > 0) await vscode.window.tabGroups.close(stale, true);
    this.updateContext();
  }

  /** After a decision in `taskId`'s change set: every open review that shows it, again with what is pending. */
  async refresh(taskId: string): Promise<void> {
    const revision = this.tabsTitled(revisionTitle(this.options.roleOf(taskId) ?? 'task', taskId));
    if (revision.length > 0 && this.options.pendingInTree(taskId).every((entry) => entry.taskId !== taskId)) {
      await vscode.window.tabGroups.close(revision, true);
    }
    for (const [rootId, title] of [...this.open]) {
      if (!this.options.isWithin(taskId, rootId)) continue;
      const tabs = this.tabsTitled(title);
      if (tabs.length === 0) {
        this.open.delete(rootId); // the user closed it
      } else if (this.options.pendingInTree(rootId).length === 0) {
        this.open.delete(rootId);
        await vscode.window.tabGroups.close(tabs, true);
      } else {
        await this.show(rootId);
      }
    }
    this.updateContext();
  }

  /** The task whose review (or revision) is the active editor, if one of ours is. */
  activeReview(): string | undefined {
    const label = vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '';
    for (const [rootId, title] of this.open) if (isTitled(label, title)) return rootId;
    return revisionTaskOf(label);
  }

  dispose(): void {
    this.subscriptions.dispose();
  }

  private titleFor(rootId: string): string {
    return `Agent Team Review: ${this.options.roleOf(rootId) ?? 'task'} (${rootId})`;
  }

  private tabsTitled(title: string): vscode.Tab[] {
    // VS Code adds the file count to the title: "Agent Team Review: refactorer (t1) (2 files)".
    return vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter(
        (tab) =>
          isTitled(tab.label, title) && !(tab.input instanceof vscode.TabInputText) && !(tab.input instanceof vscode.TabInputTextDiff),
      );
  }

  private updateContext(): void {
    const active = this.activeReview() !== undefined;
    if (active === this.active) return;
    this.active = active;
    void vscode.commands.executeCommand('setContext', changesReviewActiveKey, active);
  }
}

export function revisionTitle(role: string, taskId: string): string {
  return `Agent Team Revision: ${role} (${taskId})`;
}

/** The task of a revision editor's title, as `revisionTitle` wrote it (plus VS Code's file count). */
function revisionTaskOf(label: string): string | undefined {
  return /^Agent Team Revision: .* \(([^()\s]+)\)(?: \(\d+ files?\))?$/.exec(label)?.[1];
}

function isTitled(label: string, title: string): boolean {
  return label === title || label.startsWith(`${title} (`);
}
