/**
 * Deciding the change where the cursor is, as in a merge or a chat edit: the hunk of the proposal under
 * the cursor of the proposal's editor (a diff's right side), and after a decision the cursor moves on to
 * the next change still waiting, so the next keystroke decides that one.
 */
import * as vscode from 'vscode';
import type { HunkSnapshot } from '../../engine/index.js';
import { parseProposalUri } from './proposal-uri.js';

/** The proposal's editor showing the proposed side of `path` in `taskId`'s change set, if one is visible. */
export function proposalEditor(taskId: string, path: string): vscode.TextEditor | undefined {
  const matches = (editor: vscode.TextEditor | undefined) => {
    const address = editor ? parseProposalUri(editor.document.uri) : undefined;
    return address?.taskId === taskId && address.path === path && address.side === 'proposed';
  };
  const active = vscode.window.activeTextEditor;
  return matches(active) ? active : vscode.window.visibleTextEditors.find(matches);
}

/** The pending hunk whose lines on the proposed side hold `line` (1-based), context lines included. */
export function hunkAtLine(hunks: readonly HunkSnapshot[], line: number): HunkSnapshot | undefined {
  return hunks.find(
    (hunk) => hunk.decision === 'pending' && line >= hunk.newStart && line <= hunk.newStart + Math.max(hunk.newLines, 1) - 1,
  );
}

/** The first pending hunk at or after `line`, else the first pending one. */
export function nextPendingHunk(hunks: readonly HunkSnapshot[], line: number): HunkSnapshot | undefined {
  const pending = hunks.filter((hunk) => hunk.decision === 'pending');
  return pending.find((hunk) => hunk.newStart + Math.max(hunk.newLines, 1) - 1 >= line) ?? pending[0];
}

/** Puts the cursor on the hunk's first changed line and scrolls it into view. */
export function revealHunk(editor: vscode.TextEditor, hunk: HunkSnapshot): void {
  const firstChange = hunk.lines
    .filter((text) => !text.startsWith('-') && !text.startsWith('\\'))
    .findIndex((text) => text.startsWith('+'));
  const line = Math.max(0, hunk.newStart - 1 + Math.max(firstChange, 0));
  const position = new vscode.Position(line, 0);
  editor.selection = new vscode.Selection(position, position);
  editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
