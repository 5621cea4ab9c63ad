/** The review's QuickPicks where VS Code has no multi-file diff editor, or no hunk is under the cursor: a file of the review, or a hunk of a file. */
import * as vscode from 'vscode';
import type { FileChangeSnapshot, HunkSnapshot } from '../../engine/index.js';
import { showInfo } from '../notify.js';
import type { ReviewEntry } from './multi-diff-review.js';

type FilePick = vscode.QuickPickItem & { target?: { taskId: string; path: string }; all?: 'accept' | 'reject' };

/** A file of the review to open, or all of them to accept or reject; `unfinished` says why a task's edits may be half done. */
export function pickReviewFile(
  taskId: string,
  entries: readonly ReviewEntry[],
  unfinished: (taskId: string) => string | undefined,
): Thenable<FilePick | undefined> {
  const tasks = new Set(entries.map((entry) => entry.taskId));
  const items: FilePick[] = entries.map(({ taskId: owner, role, file }) => ({
    label: file.path,
    description: [
      `+${file.added} \u2212${file.removed}`,
      file.isNew ? '(new file)' : '',
      file.target !== undefined ? `\u2192 ${file.target}` : '',
      file.requiresApproval ? '\u2014 needs your approval' : '',
      unfinished(owner) !== undefined ? `\u2014 from an unfinished task (${unfinished(owner)})` : '',
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
  return vscode.window.showQuickPick(items, {
    title:
      tasks.size > 1
        ? vscode.l10n.t('Review changes of task {0} and its subtasks', taskId)
        : vscode.l10n.t('Review changes proposed by {0} ({1})', owner.role, owner.taskId),
    placeHolder: vscode.l10n.t('Pick a file to see its diff'),
    matchOnDescription: true,
  });
}

/** The pending hunk to decide: the only one, or the one the user picks. */
export async function pickHunk(decision: 'accept' | 'reject', file: FileChangeSnapshot): Promise<string | undefined> {
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
