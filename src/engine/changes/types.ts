/** Change-set events; the snapshot shapes are defined in change-set-schema.ts. */
import type { HunkDecision } from './change-set-schema.js';

export type { ChangeSetSnapshot, FileChangeSnapshot, FileChangeStatus, HunkDecision, HunkSnapshot } from './change-set-schema.js';

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
