/**
 * Accept / Reject where the change is: a pair of CodeLenses above each pending hunk of a proposal's
 * document (the proposed side, on its own or as a diff's right side). Each runs `agentTeam.acceptHunk` /
 * `agentTeam.rejectHunk` naming the hunk exactly (`{ taskId, path, hunkId }`), so no cursor is involved.
 * The lenses are asked for again whenever a proposal changes; while the document holds unsaved edits they
 * are hidden (their lines would be the saved proposal's), and come back once it is saved.
 */
import * as vscode from 'vscode';
import { type ChangeSetRegistry, Disposable, type HunkSnapshot } from '../../engine/index.js';
import { commandIds } from '../contribution-ids.js';
import { parseProposalUri } from './proposal-uri.js';

export class HunkLenses extends Disposable implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<void>());

  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly changes: ChangeSetRegistry) {
    super();
    this.register(changes.onEvent(() => this.changed.fire()));
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const address = parseProposalUri(document.uri);
    if (!address || address.side !== 'proposed') return [];
    const file = this.changes.get(address.taskId)?.file(address.path);
    if (!file || file.status !== 'pending' || !sameText(document.getText(), file.proposedContent)) return [];
    const lastLine = Math.max(document.lineCount - 1, 0);
    return file.hunks
      .filter((hunk) => hunk.decision === 'pending')
      .flatMap((hunk) => {
        const line = Math.min(firstChangedLine(hunk) - 1, lastLine);
        const range = new vscode.Range(new vscode.Position(line, 0), new vscode.Position(line, 0));
        const target = { taskId: address.taskId, path: address.path, hunkId: hunk.id };
        const size = `+${hunk.added} \u2212${hunk.removed}`;
        return [
          new vscode.CodeLens(range, {
            title: vscode.l10n.t('Accept Change'),
            tooltip: vscode.l10n.t('Accept this change ({0}) and write it to {1}', size, address.path),
            command: commandIds.acceptHunk,
            arguments: [target],
          }),
          new vscode.CodeLens(range, {
            title: vscode.l10n.t('Reject Change'),
            tooltip: vscode.l10n.t('Reject this change ({0}); {1} keeps these lines', size, address.path),
            command: commandIds.rejectHunk,
            arguments: [target],
          }),
        ];
      });
  }
}

/** The document holds the proposal as saved (VS Code gives a file of mixed line ends one kind of them). */
function sameText(documentText: string, proposed: string): boolean {
  return documentText === proposed || documentText.replace(/\r\n/g, '\n') === proposed.replace(/\r\n/g, '\n');
}

/** The 1-based line of the proposed side where the hunk's first added or removed line is. */
export function firstChangedLine(hunk: HunkSnapshot): number {
  let line = Math.max(hunk.newStart, 1);
  for (const text of hunk.lines) {
    if (text.startsWith('+') || text.startsWith('-')) return line;
    if (text.startsWith(' ')) line++;
  }
  return Math.max(hunk.newStart, 1);
}
