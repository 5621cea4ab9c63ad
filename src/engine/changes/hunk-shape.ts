/** What a hunk is: one reviewable piece of a file's change, with the constants of its unified-diff form. */

/** Lines of unchanged context around each hunk, as git shows them. */
export const diffContextLines = 3;

/** One reviewable piece of a file's change. */
export interface Hunk {
  /** Stable: the same while this hunk's base range and lines are unchanged, whatever else changes. */
  id: string;
  /** 1-based first base line of the hunk; for an empty range (a new file), the line it goes before. */
  oldStart: number;
  oldLines: number;
  /** 1-based first line of the hunk in the proposal. */
  newStart: number;
  newLines: number;
  /** Unified-diff body: ` ` context, `-` removed, `+` added, and `\ No newline at end of file` markers. */
  lines: readonly string[];
  added: number;
  removed: number;
  /** The base lines the hunk covers, terminators included. */
  oldText: readonly string[];
  /** The lines that replace them when the hunk is accepted. */
  newText: readonly string[];
}

export const noNewlineMarker = '\\ No newline at end of file';

export interface Segment {
  kind: 'equal' | 'removed' | 'added';
  lines: string[];
}
