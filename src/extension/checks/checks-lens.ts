/**
 * The verdict of the checks where the user decides: a line above each file of the review (a CodeLens on
 * the first line of every pending proposal's document, the right side of each diff in the multi-file diff
 * editor), e.g. "✗ Checks: 1 new failure: math › adds", which opens the run's details in the sidebar, and
 * "Run Checks Again".
 *
 * Why a CodeLens: the multi-file diff editor (`vscode.changes`) offers extensions no header, banner or
 * description, and its title is fixed when it opens (retitling means reopening it, losing the user's
 * scroll and fighting the tab matching of multi-diff-review.ts); CodeLenses do render inside its diffs
 * (the manifest turns on `diffEditor.codeLens`, as for the Accept/Reject lenses) and refresh in place
 * when `onDidChangeCodeLenses` fires, so "checks running…" becomes the verdict without the user doing
 * anything.
 */
import * as vscode from 'vscode';
import { Disposable, type TaskManager } from '../../engine/index.js';
import { checkLine, checksHeadline, checksTone, worthShowing } from '../../shared/checks-text.js';
import type { RunChecks } from '../../shared/protocol-checks.js';
import { commandIds } from '../contribution-ids.js';
import { parseProposalUri } from '../review/proposal-uri.js';
import type { RunChecksTracker } from './run-checks.js';

const toneIcons: Readonly<Record<ReturnType<typeof checksTone>, string>> = {
  running: '$(sync~spin)',
  passed: '$(pass)',
  'new-failures': '$(error)',
  'not-run': '$(circle-slash)',
};

export class ChecksLenses extends Disposable implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<void>());

  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly checks: Pick<RunChecksTracker, 'get' | 'onChange'>,
    private readonly taskManager: Pick<TaskManager, 'get'>,
    /** The configured keys out of what the lines say (test names are the repository's output). */
    private readonly redact: (text: string) => string = (text) => text,
  ) {
    super();
    this.register(checks.onChange(() => this.changed.fire()));
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const address = parseProposalUri(document.uri);
    if (!address || address.side !== 'proposed') return [];
    const runId = this.taskManager.get(address.taskId)?.rootId ?? address.taskId;
    const run = this.checks.get(runId);
    if (!worthShowing(run)) return [];
    const range = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(range, {
        title: `${toneIcons[checksTone(run)]} ${this.redact(lensHeadline(checksHeadline(run)))}`,
        tooltip: this.redact(lensTooltip(run)),
        command: commandIds.showTask,
        arguments: [runId],
      }),
      new vscode.CodeLens(range, {
        title: vscode.l10n.t('Run Checks Again'),
        tooltip: vscode.l10n.t("Run the repository's checks again on the proposals of run {0}", runId),
        command: commandIds.runChecks,
        arguments: [runId],
      }),
    ];
  }
}

/** "Checks: 1 new failure: math › adds", "Checks passed", "Checks running…". */
function lensHeadline(headline: string): string {
  return headline.startsWith('checks ') ? `C${headline.slice(1)}` : vscode.l10n.t('Checks: {0}', headline);
}

/** The whole verdict, a check a line, and where the details are. */
function lensTooltip(run: RunChecks): string {
  return [run.summary, ...run.results.map(checkLine), vscode.l10n.t('Click for the details in the Agent Team view.')].join('\n');
}
