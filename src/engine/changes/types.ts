/**
 * Plain-data shapes of change sets: what the task history store saves, the webview receives and the
 * CLI prints. Everything here survives `JSON.stringify` / `JSON.parse` unchanged.
 */

export type HunkDecision = 'pending' | 'accepted' | 'rejected';

/** `pending` until applied; `applied` once its accepted content is on disk (then it is final). */
export type FileChangeStatus = 'pending' | 'applied';

export interface HunkSnapshot {
  /** Stable while the hunk's base range and lines are unchanged. */
  id: string;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** Unified-diff body lines (` `, `-`, `+`, `\ No newline at end of file`). */
  lines: string[];
  added: number;
  removed: number;
  decision: HunkDecision;
}

export interface FileChangeSnapshot {
  /** Workspace-relative POSIX path. */
  path: string;
  /** True when the file did not exist when the task first touched it. */
  isNew: boolean;
  /** sha256 (hex) of the on-disk content when the task first touched the file; null for a new file. */
  baseHash: string | null;
  baseContent: string | null;
  proposedContent: string;
  /** Unified diff, base → proposal (all hunks, whatever their decision). */
  diff: string;
  hunks: HunkSnapshot[];
  added: number;
  removed: number;
  /** Sensitive configuration: applied only with explicit per-file approval. */
  requiresApproval: boolean;
  /** Other tasks that propose changes to the same file. */
  overlapsWith: string[];
  status: FileChangeStatus;
}

export interface ChangeSetSnapshot {
  taskId: string;
  role: string;
  files: FileChangeSnapshot[];
  added: number;
  removed: number;
}

/** What changed in a change set; the registry re-emits its sets' events and adds overlaps. */
export type ChangeSetEvent =
  /** A file's proposal was created or changed (also after a rebase). `diff` is the whole file's diff. */
  | { type: 'change-proposed'; taskId: string; path: string; diff: string; added: number; removed: number }
  /** The proposal went back to the base content, so there is nothing left to review for that file. */
  | { type: 'change-withdrawn'; taskId: string; path: string }
  /** Decisions changed; `hunkId` null when a whole file (or the whole set) was decided. */
  | { type: 'change-decided'; taskId: string; path: string; hunkId: string | null; decision: HunkDecision }
  | { type: 'change-applied'; taskId: string; path: string }
  /** The set of other tasks proposing edits to `path` changed. */
  | { type: 'change-overlap'; taskId: string; path: string; overlapsWith: string[] };

export type ChangeSetListener = (event: ChangeSetEvent) => void;
