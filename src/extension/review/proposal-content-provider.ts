/**
 * Serves proposed content (and the base it was computed from) as read-only virtual documents for
 * `vscode.diff`. Nothing here touches the disk; when a proposal changes, open documents refresh.
 */
import * as vscode from 'vscode';
import type { ChangeSetRegistry } from '../../engine/changes/registry.js';
import { parseProposalUri, proposalUri } from './proposal-uri.js';
import type { RevisionHistory } from './revisions.js';

export class ProposalContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly unsubscribe: () => void;

  readonly onDidChange = this.changed.event;

  constructor(
    private readonly changes: ChangeSetRegistry,
    private readonly revisions?: RevisionHistory,
  ) {
    this.unsubscribe = changes.onEvent((event) => this.refresh(event.taskId, event.path));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const address = parseProposalUri(uri);
    if (!address) {
      return `Agent Team cannot show ${uri.toString(true)}: it is not the address of a proposed change. Run "Agent Team: Review Changes" to open the changes waiting for review.\n`;
    }
    if (address.side === 'previous') {
      // A file the revision created had no earlier proposal: the diff shows it all as new.
      return this.revisions?.previousContent(address.taskId, address.path) ?? this.changes.get(address.taskId)?.file(address.path)?.baseContent ?? '';
    }
    const file = this.changes.get(address.taskId)?.file(address.path);
    if (!file) {
      return `Agent Team has no proposed change to ${address.path} from task ${address.taskId}. It may have been accepted, rejected or cleared from the history. Run "Agent Team: Review Changes" to see the changes still waiting for review.\n`;
    }
    return address.side === 'base' ? (file.baseContent ?? '') : file.proposedContent;
  }

  /** Tells open documents of this proposal (both sides) to reload. */
  refresh(taskId: string, path: string): void {
    this.changed.fire(proposalUri({ taskId, path, side: 'proposed' }));
    this.changed.fire(proposalUri({ taskId, path, side: 'base' }));
  }

  dispose(): void {
    this.unsubscribe();
    this.changed.dispose();
  }
}
