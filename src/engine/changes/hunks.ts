/** Hunks between a base and a proposal: computing them, writing the chosen ones onto the base, printing them as a unified diff. */
import { diffArrays, formatPatch, type StructuredPatch } from 'diff';
import { commonLines } from './common-lines.js';
import { buildHunk, groupIntoHunks } from './hunk-grouping.js';
import { diffContextLines, type Hunk, type Segment } from './hunk-shape.js';
import { splitLinesKeepingEnds } from './lines.js';

export { diffContextLines, type Hunk, noNewlineMarker } from './hunk-shape.js';

/**
 * Past this many line edits between base and proposal, the exact diff is not worth its cost (Myers is
 * O(N·D)); the changed middle then shows as one replacement hunk.
 */
const maxDiffEdits = 1000;

/** The hunks turning `base` into `proposed`; `base` null means a new file (always exactly one hunk). */
export function computeHunks(path: string, base: string | null, proposed: string): Hunk[] {
  if (base === null) {
    const newLines = splitLinesKeepingEnds(proposed);
    return [buildHunk(path, 'new', 1, [], 1, newLines, [{ kind: 'added', lines: newLines }])];
  }
  // Only the differing middle and its context are split and diffed; the shared lines before it only
  // shift the line numbers (the same on both sides, as they are shared).
  const shared = commonLines(base, proposed, diffContextLines);
  const oldLines = splitLinesKeepingEnds(base.slice(shared.prefixChars, base.length - shared.suffixChars));
  const newLines = splitLinesKeepingEnds(proposed.slice(shared.prefixChars, proposed.length - shared.suffixChars));
  return groupIntoHunks(path, oldLines, newLines, diffSegments(oldLines, newLines), shared.prefixLines);
}

function diffSegments(oldLines: string[], newLines: string[]): Segment[] {
  let prefix = 0;
  while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < oldLines.length - prefix &&
    suffix < newLines.length - prefix &&
    oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
  ) {
    suffix++;
  }
  const oldMiddle = oldLines.slice(prefix, oldLines.length - suffix);
  const newMiddle = newLines.slice(prefix, newLines.length - suffix);
  const changes = diffArrays(oldMiddle, newMiddle, { maxEditLength: maxDiffEdits }) ?? [
    { value: oldMiddle, removed: true, added: false, count: oldMiddle.length },
    { value: newMiddle, removed: false, added: true, count: newMiddle.length },
  ];
  const segments: Segment[] = [{ kind: 'equal', lines: oldLines.slice(0, prefix) }];
  for (const change of changes) {
    segments.push({ kind: change.added ? 'added' : change.removed ? 'removed' : 'equal', lines: change.value });
  }
  segments.push({ kind: 'equal', lines: oldLines.slice(oldLines.length - suffix) });
  // Adjacent segments of one kind are merged so that hunk contexts can never overlap.
  const merged: Segment[] = [];
  for (const segment of segments) {
    if (segment.lines.length === 0) continue;
    const last = merged[merged.length - 1];
    if (last && last.kind === segment.kind) last.lines = [...last.lines, ...segment.lines];
    else merged.push({ kind: segment.kind, lines: [...segment.lines] });
  }
  return merged;
}

/** Base plus exactly the hunks `isAccepted` picks; every other line stays as in the base. */
export function applyHunks(base: string, hunks: readonly Hunk[], isAccepted: (hunk: Hunk) => boolean): string {
  const oldLines = splitLinesKeepingEnds(base);
  const output: string[] = [];
  let cursor = 0;
  for (const hunk of hunks) {
    const start = hunk.oldStart - 1;
    for (let index = cursor; index < start; index++) output.push(oldLines[index]);
    output.push(...(isAccepted(hunk) ? hunk.newText : hunk.oldText));
    cursor = start + hunk.oldLines;
  }
  for (let index = cursor; index < oldLines.length; index++) output.push(oldLines[index]);
  return output.join('');
}

/** A unified diff (`--- a/path`, `+++ b/path`, hunks) of the given hunks. */
export function formatUnifiedDiff(path: string, isNew: boolean, hunks: readonly Hunk[]): string {
  const patch: StructuredPatch = {
    oldFileName: isNew ? '/dev/null' : `a/${path}`,
    newFileName: `b/${path}`,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: hunks.map((hunk) => ({
      oldStart: hunk.oldStart,
      oldLines: hunk.oldLines,
      newStart: hunk.newStart,
      newLines: hunk.newLines,
      lines: [...hunk.lines],
    })),
  };
  return formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true });
}
