import { createHash } from 'node:crypto';
import { applyHunks, computeHunks, formatUnifiedDiff, type Hunk } from './hunks.js';
import { type FileChangeSnapshot, type FileChangeStatus, type HunkDecision } from './types.js';

export function contentHash(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

/**
 * One file's proposal within a change set: the base it was computed against (fixed at first touch), the
 * proposed content (updated by every edit), the hunks between them and a decision per hunk.
 */
export class FileChange {
  readonly baseHash: string | null;
  private proposed: string;
  private hunkList: Hunk[] = [];
  private diffText = '';
  private readonly decisions = new Map<string, HunkDecision>();
  overlapsWith: string[] = [];
  status: FileChangeStatus = 'pending';
  /** True once the user edited the proposed content by hand (see `ChangeSet.editProposed`); kept from then on. */
  editedByUser = false;

  constructor(
    readonly path: string,
    readonly baseContent: string | null,
    proposedContent: string,
    /** Kept current by the change set: whether a package manifest's scripts change depends on the content. */
    public requiresApproval: boolean,
    /** Where `path` led when first proposed, when a symbolic link sent it elsewhere (see the snapshot schema). */
    readonly target?: string,
  ) {
    this.baseHash = baseContent === null ? null : contentHash(baseContent);
    this.proposed = proposedContent;
    this.recompute();
  }

  get proposedContent(): string {
    return this.proposed;
  }

  get hunks(): readonly Hunk[] {
    return this.hunkList;
  }

  get diff(): string {
    return this.diffText;
  }

  get isNew(): boolean {
    return this.baseContent === null;
  }

  /** True when the proposal equals the base: nothing to review. */
  get isEmpty(): boolean {
    return this.baseContent !== null && this.proposed === this.baseContent;
  }

  get added(): number {
    return this.hunkList.reduce((sum, hunk) => sum + hunk.added, 0);
  }

  get removed(): number {
    return this.hunkList.reduce((sum, hunk) => sum + hunk.removed, 0);
  }

  /** New proposed content; hunks that survive unchanged keep their decisions, new ones are pending. */
  setProposed(content: string): void {
    this.proposed = content;
    this.recompute();
  }

  decisionOf(hunk: Hunk): HunkDecision {
    return this.decisions.get(hunk.id) ?? 'pending';
  }

  /** Decides one hunk (by id) or, without an id, all of them. Returns false for an unknown id. */
  decide(decision: HunkDecision, hunkId?: string): boolean {
    if (hunkId === undefined) {
      for (const hunk of this.hunkList) this.decisions.set(hunk.id, decision);
      return true;
    }
    if (!this.hunkList.some((hunk) => hunk.id === hunkId)) return false;
    this.decisions.set(hunkId, decision);
    return true;
  }

  acceptedHunks(): Hunk[] {
    return this.hunkList.filter((hunk) => this.decisionOf(hunk) === 'accepted');
  }

  /**
   * The content the decisions give: exactly the base plus the accepted hunks. null for a new file whose
   * creation is not accepted (the file is not created).
   */
  resultContent(): string | null {
    if (this.baseContent === null) return this.acceptedHunks().length > 0 ? this.proposed : null;
    return applyHunks(this.baseContent, this.hunkList, (hunk) => this.decisionOf(hunk) === 'accepted');
  }

  snapshot(): FileChangeSnapshot {
    return {
      path: this.path,
      ...(this.target !== undefined ? { target: this.target } : {}),
      isNew: this.isNew,
      baseHash: this.baseHash,
      baseContent: this.baseContent,
      proposedContent: this.proposed,
      diff: this.diffText,
      hunks: this.hunkList.map((hunk) => ({
        id: hunk.id,
        oldStart: hunk.oldStart,
        oldLines: hunk.oldLines,
        newStart: hunk.newStart,
        newLines: hunk.newLines,
        lines: [...hunk.lines],
        added: hunk.added,
        removed: hunk.removed,
        decision: this.decisionOf(hunk),
      })),
      added: this.added,
      removed: this.removed,
      requiresApproval: this.requiresApproval,
      overlapsWith: [...this.overlapsWith],
      status: this.status,
      ...(this.editedByUser ? { editedByUser: true } : {}),
    };
  }

  static fromSnapshot(snapshot: FileChangeSnapshot): FileChange {
    const change = new FileChange(
      snapshot.path,
      snapshot.baseContent,
      snapshot.proposedContent,
      snapshot.requiresApproval,
      snapshot.target,
    );
    for (const hunk of snapshot.hunks) if (hunk.decision !== 'pending') change.decide(hunk.decision, hunk.id);
    change.overlapsWith = [...snapshot.overlapsWith];
    change.status = snapshot.status;
    change.editedByUser = snapshot.editedByUser === true;
    return change;
  }

  private recompute(): void {
    this.hunkList = computeHunks(this.path, this.baseContent, this.proposed);
    this.diffText = this.hunkList.length === 0 ? '' : formatUnifiedDiff(this.path, this.isNew, this.hunkList);
    const live = new Set(this.hunkList.map((hunk) => hunk.id));
    for (const id of [...this.decisions.keys()]) if (!live.has(id)) this.decisions.delete(id);
  }
}
