/**
 * The proposal documents (`agent-team-proposal:`) as a file system, so the proposed side of a diff is a
 * document the user can edit and save before accepting: saving hands the text to the change set as the
 * user's edit (`ChangeSet.editProposed`), which recomputes the hunks and tells every view. The base and
 * the previous proposal are read-only (their stat says so, and a write is refused), and so is the text
 * shown for an address with no proposal behind it. Nothing here touches the workspace's files.
 */
import * as vscode from 'vscode';
import { type ChangeSetRegistry, Disposable, WorkspaceError } from '../../engine/index.js';
import { type ProposalAddress, parseProposalUri, proposalUri } from './proposal-uri.js';
import type { RevisionHistory } from './revisions.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

export class ProposalFileSystem extends Disposable implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  /** A modification time per proposal, raised at every change, so VS Code reloads and detects stale saves. */
  private readonly versions = new Map<string, number>();
  private clock = 1;

  readonly onDidChangeFile = this.changed.event;

  constructor(
    private readonly changes: ChangeSetRegistry,
    private readonly revisions?: RevisionHistory,
  ) {
    super();
    this.register(changes.onEvent((event) => this.refresh(event.taskId, event.path)));
  }

  /** The document's text, and whether the user may save an edit of it. */
  read(uri: vscode.Uri): { text: string; writable: boolean } {
    const address = parseProposalUri(uri);
    if (!address) {
      return {
        text: `Agent Team cannot show ${uri.toString(true)}: it is not the address of a proposed change. Run "Agent Team: Review Changes" to open the changes waiting for review.\n`,
        writable: false,
      };
    }
    const file = this.changes.get(address.taskId)?.file(address.path);
    if (address.side === 'previous') {
      // A file the revision created had no earlier proposal: the diff shows it all as new.
      return { text: this.revisions?.previousContent(address.taskId, address.path) ?? file?.baseContent ?? '', writable: false };
    }
    if (!file) {
      return {
        text: `Agent Team has no proposed change to ${address.path} from task ${address.taskId}. It may have been accepted, rejected or cleared from the history. Run "Agent Team: Review Changes" to see the changes still waiting for review.\n`,
        writable: false,
      };
    }
    if (address.side === 'base') return { text: file.baseContent ?? '', writable: false };
    return { text: file.proposedContent, writable: file.status === 'pending' };
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const { text, writable } = this.read(uri);
    return {
      type: vscode.FileType.File,
      ctime: 0,
      mtime: this.versions.get(keyOf(parseProposalUri(uri))) ?? 0,
      size: encoder.encode(text).byteLength,
      ...(writable ? {} : { permissions: vscode.FilePermission.Readonly }),
    };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return encoder.encode(this.read(uri).text);
  }

  /** Saving the proposed side: the text becomes the proposal, as the user's edit. Other sides refuse. */
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const address = parseProposalUri(uri);
    if (!address || address.side !== 'proposed') {
      throw vscode.FileSystemError.NoPermissions(
        address
          ? `${address.path} as it was ${address.side === 'base' ? 'before the proposal' : 'before the revision'} is read-only: edit the proposed side.`
          : `${uri.toString(true)} is not a proposed change.`,
      );
    }
    const changeSet = this.changes.get(address.taskId);
    if (!changeSet?.file(address.path)) {
      throw vscode.FileSystemError.NoPermissions(
        `Your edit was not kept: task ${address.taskId} has no proposed change to ${address.path} any more (accepted, rejected or cleared from the history).`,
      );
    }
    try {
      changeSet.editProposed(address.path, decoder.decode(content));
    } catch (error) {
      if (error instanceof WorkspaceError) throw vscode.FileSystemError.NoPermissions(error.message);
      throw error;
    }
  }

  /** Tells open documents of this proposal (every side) to reload. */
  refresh(taskId: string, path: string): void {
    const sides = ['proposed', 'base', 'previous'] as const;
    for (const side of sides) this.versions.set(keyOf({ taskId, path, side }), ++this.clock);
    this.changed.fire(sides.map((side) => ({ type: vscode.FileChangeType.Changed, uri: proposalUri({ taskId, path, side }) })));
  }

  watch(): vscode.Disposable {
    // Every change is announced anyway (`onDidChangeFile`), watched or not.
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}

function keyOf(address: ProposalAddress | undefined): string {
  return address ? `${address.taskId}\0${address.path}\0${address.side}` : '';
}
