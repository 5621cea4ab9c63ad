import { WorkspaceError } from '../errors.js';
import { Emitter } from '../util/emitter.js';
import { comparePaths } from '../workspace/paths.js';
import { PathRules } from '../workspace/path-rules.js';
import { type WorkspacePolicy } from '../workspace/policy.js';
import { FileChange } from './file-change.js';
import {
  type ChangeSetEvent,
  type ChangeSetListener,
  type ChangeSetSnapshot,
  type FileChangeSnapshot,
  type HunkDecision,
} from './types.js';

export interface ChangeSetOptions {
  taskId: string;
  /** The role that proposed the changes, for the review UI. */
  role: string;
  /** Decides which files need explicit approval and which are never writable. Default: `defaultWorkspacePolicy`. */
  policy?: WorkspacePolicy;
}

/** Which changes a decision applies to: everything, one file, or one hunk of one file. */
export interface DecisionTarget {
  path?: string;
  /** Requires `path`. */
  hunkId?: string;
}

/** A new base and proposal for a file whose disk content changed under it (see `applyChangeSet`). */
export interface RebaseProposal {
  /** The current disk content the proposal is now built on; null when the file does not exist. */
  baseContent: string | null;
  proposedContent: string;
}

/**
 * All edits one task proposed, per file. Tools add to it through `ChangeSetWorkspace`; nothing reaches
 * the disk until `applyChangeSet` writes the accepted hunks. Deleting files is out of scope: a proposal
 * always leaves the file existing.
 */
export class ChangeSet {
  readonly taskId: string;
  readonly role: string;
  /** The policy's rules on both names of a file; `applyChangeSet` checks them again before writing. */
  readonly rules: PathRules;
  private readonly files = new Map<string, FileChange>();
  // A failing listener (a closed webview, say) is skipped: it must not break the edit that triggered it.
  private readonly events = new Emitter<ChangeSetEvent>();

  constructor(options: ChangeSetOptions) {
    this.taskId = options.taskId;
    this.role = options.role;
    this.rules = new PathRules(options.policy);
  }

  /**
   * Records `proposedContent` for `path`. `baseContent` (the disk content, null for a new file) is used
   * only on the first touch — later edits keep the original base. `target` is where `path` really leads
   * (after symbolic links; default `path` itself): the policy is checked on both, and a later edit whose
   * path leads elsewhere than the first one's is a conflict. A proposal equal to its base is withdrawn.
   * Throws `read-only` for protected paths (`.git/**`), by either name.
   */
  propose(path: string, change: { baseContent: string | null; proposedContent: string; target?: string }): FileChangeSnapshot | undefined {
    assertWorkspacePath(path);
    const target = change.target ?? path;
    this.rules.assertWritable(path, target);
    let file = this.files.get(path);
    if (file && file.status === 'pending') {
      const first = file.target ?? path;
      if (first !== target) {
        throw new WorkspaceError(
          'conflict',
          `${path} now leads to ${target}, but to ${first} when its change was first proposed (a symbolic link changed); the edit was not added.`,
          path,
        );
      }
      if (file.proposedContent === change.proposedContent) return file.snapshot();
      file.setProposed(change.proposedContent);
      file.requiresApproval = this.needsApproval(file);
    } else {
      file = new FileChange(path, change.baseContent, change.proposedContent, false, target === path ? undefined : target);
      file.requiresApproval = this.needsApproval(file);
      this.files.set(path, file);
    }
    return this.announce(file);
  }

  /**
   * The user edited the proposed content of `path` by hand (a proposal document saved in the editor):
   * the proposal becomes `proposedContent`, marked as the user's edit; the base stays, so accepting
   * later is conflict-checked against the disk exactly as before. Hunks that survive unchanged keep
   * their decisions. Throws `not-found` when there is no such proposal, `invalid` when it was already
   * written, every one of its changes is decided, or the edit leaves nothing to change.
   */
  editProposed(path: string, proposedContent: string): FileChangeSnapshot {
    const file = this.require(path);
    const refuse = (why: string) => new WorkspaceError('invalid', `Your edit of ${path} was not kept: ${why}`, path);
    if (file.status === 'applied') throw refuse('its proposed change was already accepted and written.');
    if (!file.hunks.some((hunk) => file.decisionOf(hunk) === 'pending'))
      throw refuse('its proposed change was already accepted or rejected.');
    if (file.baseContent === proposedContent)
      throw refuse('it is the file as it was before the proposal. To drop the whole change, reject it.');
    if (file.proposedContent === proposedContent) return file.snapshot();
    file.setProposed(proposedContent);
    file.editedByUser = true;
    file.requiresApproval = this.needsApproval(file);
    return this.announce(file)!;
  }

  /** True when `path` has a proposal not yet applied. */
  isOpen(path: string): boolean {
    return this.files.get(path)?.status === 'pending';
  }

  /** The proposed content of an open proposal, else undefined. */
  proposedContent(path: string): string | undefined {
    const file = this.files.get(path);
    return file?.status === 'pending' ? file.proposedContent : undefined;
  }

  /** Every file with a proposal, applied ones included, in path order. */
  paths(): string[] {
    return [...this.files.keys()].sort(comparePaths);
  }

  /** Files with a proposal not yet applied, in path order. */
  openPaths(): string[] {
    return this.paths().filter((path) => this.isOpen(path));
  }

  file(path: string): FileChangeSnapshot | undefined {
    return this.files.get(path)?.snapshot();
  }

  accept(target: DecisionTarget = {}): void {
    this.decide('accepted', target);
  }

  reject(target: DecisionTarget = {}): void {
    this.decide('rejected', target);
  }

  /** Sets the decision of every open file's hunks, one file's, or one hunk's. */
  decide(decision: HunkDecision, target: DecisionTarget = {}): void {
    if (target.path === undefined) {
      if (target.hunkId !== undefined) throw new WorkspaceError('invalid', 'A hunk decision needs the file path as well as the hunk id.');
      for (const path of this.openPaths()) this.decideFile(decision, path, undefined);
      return;
    }
    this.decideFile(decision, target.path, target.hunkId);
  }

  /** Exactly the base plus the accepted hunks; null for a new file whose creation is not accepted. */
  resultContent(path: string): string | null {
    return this.require(path).resultContent();
  }

  /** Replaces a conflicted file's proposal by one built on the current disk; its hunks start pending. */
  rebase(path: string, proposal: RebaseProposal): FileChangeSnapshot | undefined {
    const old = this.require(path);
    this.files.delete(path);
    const file = new FileChange(path, proposal.baseContent, proposal.proposedContent, old.requiresApproval, old.target);
    file.requiresApproval = old.requiresApproval || this.needsApproval(file);
    file.overlapsWith = old.overlapsWith;
    file.editedByUser = old.editedByUser;
    this.files.set(path, file);
    return this.announce(file);
  }

  /** Marks a file as written (called by `applyChangeSet`); an applied file is final. */
  markApplied(path: string): void {
    this.require(path).status = 'applied';
    this.events.emit({ type: 'change-applied', taskId: this.taskId, path });
  }

  /** Internal view for `applyChangeSet`. */
  fileChange(path: string): FileChange {
    return this.require(path);
  }

  /** Sets which other tasks propose changes to `path` (called by `ChangeSetRegistry`). */
  setOverlaps(path: string, taskIds: string[]): void {
    const file = this.files.get(path);
    if (!file) return;
    const sorted = [...taskIds].sort();
    if (sorted.join('\0') === file.overlapsWith.join('\0')) return;
    file.overlapsWith = sorted;
    this.events.emit({ type: 'change-overlap', taskId: this.taskId, path, overlapsWith: [...sorted] });
  }

  /** Listens to this set's events; returns the function that stops listening. */
  onEvent(listener: ChangeSetListener): () => void {
    return this.events.subscribe(listener);
  }

  snapshot(): ChangeSetSnapshot {
    const files = this.paths().map((path) => this.files.get(path)!.snapshot());
    return {
      taskId: this.taskId,
      role: this.role,
      files,
      added: files.reduce((sum, file) => sum + file.added, 0),
      removed: files.reduce((sum, file) => sum + file.removed, 0),
    };
  }

  /** Rebuilds a set from a snapshot (task history); decisions are restored by hunk id. */
  static fromSnapshot(snapshot: ChangeSetSnapshot, options: { policy?: WorkspacePolicy } = {}): ChangeSet {
    const changeSet = new ChangeSet({ taskId: snapshot.taskId, role: snapshot.role, policy: options.policy });
    for (const file of snapshot.files) changeSet.files.set(file.path, FileChange.fromSnapshot(file));
    return changeSet;
  }

  /**
   * Approval-required configuration, secret files too (an agent that writes `.env` or `.npmrc` can change
   * what the next build or install runs), and a package manifest whose scripts the proposal changes.
   */
  private needsApproval(file: FileChange): boolean {
    return this.rules.requiresApproval(file.path, file.target ?? file.path, file.baseContent, file.proposedContent);
  }

  /** Emits what a new or changed proposal means: a diff to review, or nothing left (withdrawn). */
  private announce(file: FileChange): FileChangeSnapshot | undefined {
    if (file.isEmpty) {
      this.files.delete(file.path);
      this.events.emit({ type: 'change-withdrawn', taskId: this.taskId, path: file.path });
      return undefined;
    }
    this.events.emit({
      type: 'change-proposed',
      taskId: this.taskId,
      path: file.path,
      diff: file.diff,
      added: file.added,
      removed: file.removed,
    });
    return file.snapshot();
  }

  private decideFile(decision: HunkDecision, path: string, hunkId: string | undefined): void {
    const file = this.require(path);
    if (file.status === 'applied') {
      throw new WorkspaceError('invalid', `${path} was already applied; its decisions are final.`, path);
    }
    if (!file.decide(decision, hunkId)) {
      throw new WorkspaceError(
        'invalid',
        `${path} has no hunk ${hunkId}; the proposal changed since it was shown. Review the current diff again.`,
        path,
      );
    }
    this.events.emit({ type: 'change-decided', taskId: this.taskId, path, hunkId: hunkId ?? null, decision });
  }

  private require(path: string): FileChange {
    const file = this.files.get(path);
    if (!file) throw new WorkspaceError('not-found', `Task ${this.taskId} proposed no change to ${path}.`, path);
    return file;
  }
}

function assertWorkspacePath(path: string): void {
  if (path === '' || path.startsWith('/') || path.split('/').some((segment) => segment === '..' || segment === '.' || segment === '')) {
    throw new WorkspaceError('invalid', `${JSON.stringify(path)} is not a workspace-relative file path.`, path);
  }
}
