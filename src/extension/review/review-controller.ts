/**
 * Review of a task's change set: the multi-file diff editor (multi-diff-review.ts), or where that is
 * missing a QuickPick of the files (`+n −m`), each opened with `vscode.diff` between the file as it is (or
 * the task's base when the file moved on since) and the proposal served under `agent-team-proposal:`.
 * Decisions are made by `ChangeDecisions`; here they are targeted (the hunk at the cursor, or picked) and
 * the editors refreshed or closed when a file is settled.
 */
import * as vscode from 'vscode';
import type { ChangeSetRegistry, FileChangeSnapshot, TaskManager, Workspace } from '../../engine/index.js';
import { showInfo, showWarning } from '../notify.js';
import type { ChangeDecisions, DecisionOutcome } from './change-decisions.js';
import { hunkAtLine, nextPendingHunk, proposalEditor, revealHunk } from './hunk-at-cursor.js';
import { MultiDiffReviews, type ReviewEntry } from './multi-diff-review.js';
import { proposalUri } from './proposal-uri.js';
import { activeProposal, closeProposalTabs, fileMatchingBase } from './proposal-tabs.js';
import { pickHunk, pickReviewFile } from './review-pickers.js';
import { pendingInTree, subtreeIds, unfinishedReason } from './review-tree.js';

export interface ReviewControllerOptions {
  changes: ChangeSetRegistry;
  taskManager: TaskManager;
  /** The workspace folder's root URI, or undefined when no folder is open. */
  folderUri: () => vscode.Uri | undefined;
  workspace: () => Promise<Workspace>;
}

export class ReviewController implements vscode.Disposable {
  private decisions: ChangeDecisions | undefined;
  private readonly multiDiff: MultiDiffReviews;

  constructor(private readonly options: ReviewControllerOptions) {
    this.multiDiff = new MultiDiffReviews({
      pendingInTree: (taskId) => this.pendingInTree(taskId),
      leftSide: async ({ taskId, file }) =>
        (await this.currentFileMatchingBase(file)) ?? proposalUri({ taskId, path: file.path, side: 'base' }),
      rightSide: ({ taskId, file }) => proposalUri({ taskId, path: file.path, side: 'proposed' }),
      workspaceUri: (path) => {
        const folder = options.folderUri();
        return folder ? vscode.Uri.joinPath(folder, ...path.split('/')) : undefined;
      },
      roleOf: (taskId) => options.taskManager.get(taskId)?.role,
      isWithin: (taskId, rootId) => subtreeIds(options.taskManager, rootId).includes(taskId),
    });
  }

  /** Set once both exist (they refer to each other: a conflict's rebase reopens the diff). */
  useDecisions(decisions: ChangeDecisions): void {
    this.decisions = decisions;
  }

  /**
   * Shows the pending files of the task and of every task below it (a coordinator's edits are its
   * subagents') in the multi-file diff editor; where VS Code has none, a list to open each file's diff
   * from, or to decide all of them.
   */
  async review(taskId: string): Promise<void> {
    const entries = this.pendingInTree(taskId);
    if (entries.length === 0) {
      showInfo(vscode.l10n.t('Task {0} has no proposed changes waiting for review.', taskId));
      return;
    }
    if (await this.multiDiff.show(taskId)) return;
    const picked = await pickReviewFile(taskId, entries, (owner) => this.unfinished(owner));
    if (!picked) return;
    if (picked.target) return this.openDiff(picked.target.taskId, picked.target.path);
    if (picked.all) await this.decideAll(picked.all, taskId);
  }

  /** The task whose review is the active editor, if one of ours is. */
  activeReview(): string | undefined {
    return this.multiDiff.activeReview();
  }

  /** Files waiting for review in the task's tree. */
  pendingFileCount(taskId: string): number {
    return this.pendingInTree(taskId).length;
  }

  /** Tasks (the given one and its descendants) with files waiting for review. */
  tasksWithPendingChanges(taskId: string): string[] {
    return [...new Set(this.pendingInTree(taskId).map((entry) => entry.taskId))];
  }

  private pendingInTree(taskId: string): ReviewEntry[] {
    return pendingInTree(this.options.changes, this.options.taskManager, taskId);
  }

  /** Opens `vscode.diff`: the file as it is (or the base) on the left, the proposal on the right. */
  async openDiff(taskId: string, path: string): Promise<void> {
    const changeSet = this.options.changes.get(taskId);
    const file = changeSet?.file(path);
    if (!changeSet || !file) {
      showInfo(vscode.l10n.t('Task {0} has no proposed change to {1}.', taskId, path));
      return;
    }
    const left = (await this.currentFileMatchingBase(file)) ?? proposalUri({ taskId, path, side: 'base' });
    const right = proposalUri({ taskId, path, side: 'proposed' });
    const title = `${path}${file.isNew ? ' (new)' : ''} \u2194 proposed by ${changeSet.role} (${taskId})`;
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: false });
  }

  async decideFile(decision: 'accept' | 'reject', taskId: string, path: string): Promise<DecisionOutcome> {
    const decisions = this.requireDecisions();
    const outcome = decision === 'accept' ? await decisions.acceptFile(taskId, path) : await decisions.rejectFile(taskId, path);
    if (outcome === 'applied' || outcome === 'rejected') {
      await closeProposalTabs(taskId, path);
      await this.multiDiff.refresh(taskId);
      vscode.window.setStatusBarMessage(`Agent Team: ${outcome === 'applied' ? 'accepted' : 'rejected'} the change to ${path}`, 4000);
    }
    return outcome;
  }

  /** Decides every pending file of the task's tree: the review in front when no task is given. */
  async decideAll(decision: 'accept' | 'reject', taskId?: string): Promise<number> {
    const rootId = taskId ?? this.multiDiff.activeReview() ?? this.activeProposal()?.taskId;
    if (rootId === undefined) {
      showInfo(vscode.l10n.t('Open a review first ("Agent Team: Review Changes"), then {0} all of it.', decision));
      return 0;
    }
    let decided = 0;
    const unfinished: string[] = [];
    for (const entry of this.pendingInTree(rootId)) {
      // A failed or stopped task's edits may be half of a change: accepted one by one, never in bulk.
      const why = decision === 'accept' ? this.unfinished(entry.taskId) : undefined;
      if (why !== undefined) {
        unfinished.push(`${entry.file.path} (${why})`);
        continue;
      }
      const outcome = await this.decideFile(decision, entry.taskId, entry.file.path);
      if (outcome === 'applied' || outcome === 'rejected') decided++;
    }
    if (unfinished.length > 0) {
      showWarning(
        vscode.l10n.t(
          'Not accepted: {0}. Their tasks did not complete, so their edits may be half done; accept each file on its own if you want it.',
          unfinished.join(', '),
        ),
      );
    }
    return decided;
  }

  private unfinished(taskId: string): string | undefined {
    return unfinishedReason(this.options.taskManager, taskId);
  }

  /**
   * Decides one hunk: `hunkId`, else the one under the cursor of the proposal's editor, else the one the
   * user picks. Afterwards the cursor moves on to the next change still waiting in that file.
   */
  async decideHunk(decision: 'accept' | 'reject', taskId: string, path: string, hunkId?: string): Promise<DecisionOutcome> {
    const file = this.options.changes.get(taskId)?.file(path);
    if (!file) {
      showInfo(vscode.l10n.t('Task {0} has no proposed change to {1}.', taskId, path));
      return 'skipped';
    }
    const editor = proposalEditor(taskId, path);
    const cursorLine = editor ? editor.selection.active.line + 1 : undefined;
    const chosen =
      hunkId ?? (cursorLine === undefined ? undefined : hunkAtLine(file.hunks, cursorLine)?.id) ?? (await pickHunk(decision, file));
    if (chosen === undefined) return 'cancelled';
    const decisions = this.requireDecisions();
    const outcome =
      decision === 'accept' ? await decisions.acceptHunk(taskId, path, chosen) : await decisions.rejectHunk(taskId, path, chosen);
    const after = this.options.changes.get(taskId)?.file(path);
    if (!after || after.status === 'applied' || after.hunks.every((hunk) => hunk.decision !== 'pending')) {
      await closeProposalTabs(taskId, path);
      await this.multiDiff.refresh(taskId);
    } else {
      const next = nextPendingHunk(after.hunks, cursorLine ?? 1);
      const shown = proposalEditor(taskId, path);
      if (next && shown) revealHunk(shown, next);
    }
    return outcome;
  }

  /** The proposal shown in the active editor (a diff's right side or the proposal itself), if any. */
  activeProposal(): { taskId: string; path: string } | undefined {
    return activeProposal();
  }

  private async currentFileMatchingBase(file: FileChangeSnapshot): Promise<vscode.Uri | undefined> {
    return fileMatchingBase(this.options.folderUri(), this.options.workspace, file);
  }

  /** Opens what a revision changed, each file against its previous proposal. */
  showRevision(taskId: string, resources: Array<[vscode.Uri, vscode.Uri, vscode.Uri]>): Promise<void> {
    return this.multiDiff.showRevision(taskId, resources);
  }

  dispose(): void {
    this.multiDiff.dispose();
  }

  private requireDecisions(): ChangeDecisions {
    if (!this.decisions) throw new Error('ReviewController: decisions are not connected');
    return this.decisions;
  }
}
