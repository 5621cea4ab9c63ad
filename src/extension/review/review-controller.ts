/**
 * Review of a task's change set: the multi-file diff editor (multi-diff-review.ts), or where that is
 * missing a QuickPick of the files (`+n −m`), each opened with `vscode.diff` between the file as it is (or
 * the task's base when the file moved on since) and the proposal served under `agent-team-proposal:`.
 * Decisions are made by `ChangeDecisions`; here they are targeted (the hunk at the cursor, or picked) and
 * the editors refreshed or closed when a file is settled.
 */
import * as vscode from 'vscode';
import { type ChangeSetRegistry, contentHash, type FileChangeSnapshot, type HunkSnapshot } from '../../engine/changes/index.js';
import type { TaskManager } from '../../engine/tasks/index.js';
import type { Workspace } from '../../engine/workspace/index.js';
import { pendingFiles } from '../change-summaries.js';
import { showInfo, showWarning } from '../notify.js';
import type { ChangeDecisions, DecisionOutcome } from './change-decisions.js';
import { hunkAtLine, nextPendingHunk, proposalEditor, revealHunk } from './hunk-at-cursor.js';
import { MultiDiffReviews, type ReviewEntry } from './multi-diff-review.js';
import { parseProposalUri, proposalUri } from './proposal-uri.js';

export interface ReviewControllerOptions {
  changes: ChangeSetRegistry;
  taskManager: TaskManager;
  /** The workspace folder's root URI, or undefined when no folder is open. */
  folderUri: () => vscode.Uri | undefined;
  workspace: () => Promise<Workspace>;
}

type FilePick = vscode.QuickPickItem & { target?: { taskId: string; path: string }; all?: 'accept' | 'reject' };

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
    const tasks = new Set(entries.map((entry) => entry.taskId));
    const items: FilePick[] = entries.map(({ taskId: owner, role, file }) => ({
      label: file.path,
      description: [
        `+${file.added} \u2212${file.removed}`,
        file.isNew ? '(new file)' : '',
        file.target !== undefined ? `\u2192 ${file.target}` : '',
        file.requiresApproval ? '\u2014 needs your approval' : '',
        this.unfinished(owner) !== undefined ? `\u2014 from an unfinished task (${this.unfinished(owner)})` : '',
        tasks.size > 1 ? `\u00b7 ${role} (${owner})` : '',
      ]
        .filter((part) => part !== '')
        .join(' '),
      iconPath: new vscode.ThemeIcon(file.isNew ? 'diff-added' : 'diff-modified'),
      target: { taskId: owner, path: file.path },
    }));
    if (entries.length > 1) {
      items.push(
        { label: '', kind: vscode.QuickPickItemKind.Separator },
        { label: `$(check-all) ${vscode.l10n.t('Accept All {0} Files', entries.length)}`, all: 'accept' },
        { label: `$(close-all) ${vscode.l10n.t('Reject All {0} Files', entries.length)}`, all: 'reject' },
      );
    }
    const owner = entries[0];
    const picked = await vscode.window.showQuickPick(items, {
      title:
        tasks.size > 1
          ? vscode.l10n.t('Review changes of task {0} and its subtasks', taskId)
          : vscode.l10n.t('Review changes proposed by {0} ({1})', owner.role, owner.taskId),
      placeHolder: vscode.l10n.t('Pick a file to see its diff'),
      matchOnDescription: true,
    });
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
    const entries: ReviewEntry[] = [];
    for (const id of subtreeIds(this.options.taskManager, taskId)) {
      const changeSet = this.options.changes.get(id);
      if (!changeSet) continue;
      for (const file of pendingFiles(changeSet)) entries.push({ taskId: id, role: changeSet.role, file });
    }
    return entries;
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
      await this.closeDiffs(taskId, path);
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

  /** Why a task's proposals are not those of a finished piece of work, or undefined when they are. */
  private unfinished(taskId: string): string | undefined {
    const task = this.options.taskManager.get(taskId);
    if (!task || task.status === 'completed') return undefined;
    if (task.status === 'failed' || task.status === 'stopped' || task.status === 'interrupted')
      return `${task.role} ${task.id} ${task.status}`;
    return `${task.role} ${task.id} is still ${task.status}`;
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
      hunkId ?? (cursorLine === undefined ? undefined : hunkAtLine(file.hunks, cursorLine)?.id) ?? (await this.pickHunk(decision, file));
    if (chosen === undefined) return 'cancelled';
    const decisions = this.requireDecisions();
    const outcome =
      decision === 'accept' ? await decisions.acceptHunk(taskId, path, chosen) : await decisions.rejectHunk(taskId, path, chosen);
    const after = this.options.changes.get(taskId)?.file(path);
    if (!after || after.status === 'applied' || after.hunks.every((hunk) => hunk.decision !== 'pending')) {
      await this.closeDiffs(taskId, path);
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
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const candidates: Array<vscode.Uri | undefined> = [
      input instanceof vscode.TabInputTextDiff ? input.modified : undefined,
      input instanceof vscode.TabInputText ? input.uri : undefined,
      vscode.window.activeTextEditor?.document.uri,
    ];
    for (const uri of candidates) {
      const address = uri ? parseProposalUri(uri) : undefined;
      if (address) return { taskId: address.taskId, path: address.path };
    }
    return undefined;
  }

  private async pickHunk(decision: 'accept' | 'reject', file: FileChangeSnapshot): Promise<string | undefined> {
    const hunks = file.hunks.filter((hunk) => hunk.decision === 'pending');
    if (hunks.length === 0) {
      showInfo(vscode.l10n.t('{0} has no change left to decide.', file.path));
      return undefined;
    }
    if (hunks.length === 1) return hunks[0].id;
    const picked = await vscode.window.showQuickPick(
      hunks.map((hunk) => ({
        label: hunkLabel(hunk),
        description: `+${hunk.added} \u2212${hunk.removed}`,
        detail: hunkPreview(hunk),
        id: hunk.id,
      })),
      {
        title: vscode.l10n.t('{0} a change in {1}', decision === 'accept' ? 'Accept' : 'Reject', file.path),
        placeHolder: vscode.l10n.t('Pick the change (hunk)'),
      },
    );
    return picked?.id;
  }

  /** The workspace file, when its content is still the task's base (so the diff shows only the proposal). */
  private async currentFileMatchingBase(file: FileChangeSnapshot): Promise<vscode.Uri | undefined> {
    const folder = this.options.folderUri();
    if (!folder || file.isNew || file.baseHash === null) return undefined;
    try {
      const workspace = await this.options.workspace();
      if (contentHash(await workspace.readText(file.path)) !== file.baseHash) return undefined;
    } catch {
      return undefined;
    }
    return vscode.Uri.joinPath(folder, ...file.path.split('/'));
  }

  private async closeDiffs(taskId: string, path: string): Promise<void> {
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => {
        const uri =
          tab.input instanceof vscode.TabInputTextDiff
            ? tab.input.modified
            : tab.input instanceof vscode.TabInputText
              ? tab.input.uri
              : undefined;
        const address = uri ? parseProposalUri(uri) : undefined;
        return address?.taskId === taskId && address.path === path;
      });
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
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

function hunkLabel(hunk: HunkSnapshot): string {
  if (hunk.oldLines === 0) return `New content at line ${hunk.newStart}`;
  const end = hunk.oldStart + hunk.oldLines - 1;
  return end === hunk.oldStart ? `Line ${hunk.oldStart}` : `Lines ${hunk.oldStart}\u2013${end}`;
}

/** The first changed line, for recognising the hunk in the picker. */
function hunkPreview(hunk: HunkSnapshot): string {
  const line = hunk.lines.find((candidate) => candidate.startsWith('+') || candidate.startsWith('-')) ?? '';
  return line.length > 100 ? `${line.slice(0, 99)}\u2026` : line;
}

/** The task and all its descendants, parents first; just the id when the manager does not know it. */
export function subtreeIds(taskManager: TaskManager, taskId: string): string[] {
  const ids = [taskId];
  for (let index = 0; index < ids.length; index++) ids.push(...taskManager.children(ids[index]).map((child) => child.id));
  return ids;
}
