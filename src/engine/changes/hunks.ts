import { createHash } from 'node:crypto';
import { diffArrays, formatPatch, type StructuredPatch } from 'diff';
import { commonLines } from './common-lines.js';
import { splitLinesKeepingEnds, withoutNewline } from './lines.js';

/** Lines of unchanged context around each hunk, as git shows them. */
export const diffContextLines = 3;

/**
 * Past this many line edits between base and proposal, the exact diff is not worth its cost (Myers is
 * O(N·D)); the changed middle then shows as one replacement hunk.
 */
const maxDiffEdits = 1000;

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

interface Segment {
  kind: 'equal' | 'removed' | 'added';
  lines: string[];
}

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

interface Region {
  /** Index of the first segment and one past the last, in `segments`. */
  from: number;
  to: number;
}

/** `lineOffset`: lines of both texts before `oldLines` and `newLines` begin. */
function groupIntoHunks(path: string, oldLines: string[], newLines: string[], segments: Segment[], lineOffset: number): Hunk[] {
  // Runs of changed segments; two runs separated by at most 2×context equal lines share a hunk.
  const regions: Region[] = [];
  for (let index = 0; index < segments.length; index++) {
    if (segments[index].kind === 'equal') continue;
    const previous = regions[regions.length - 1];
    const gap = previous ? segments.slice(previous.to, index) : undefined;
    if (previous && gap && (gap.length === 0 || (gap.length === 1 && gap[0].lines.length <= 2 * diffContextLines))) {
      previous.to = index + 1;
    } else {
      regions.push({ from: index, to: index + 1 });
    }
  }
  const hunks: Hunk[] = [];
  const oldOffsets = segmentOffsets(segments, 'added');
  const newOffsets = segmentOffsets(segments, 'removed');
  for (const region of regions) {
    const before = segments[region.from - 1];
    const after = segments[region.to];
    const lead = before ? Math.min(diffContextLines, before.lines.length) : 0;
    const trail = after ? Math.min(diffContextLines, after.lines.length) : 0;
    const body: Segment[] = [];
    if (lead > 0) body.push({ kind: 'equal', lines: before.lines.slice(-lead) });
    body.push(...segments.slice(region.from, region.to));
    if (trail > 0) body.push({ kind: 'equal', lines: after.lines.slice(0, trail) });
    const oldFrom = oldOffsets[region.from] - lead;
    const newFrom = newOffsets[region.from] - lead;
    const oldTo = oldOffsets[region.to] + trail;
    const newTo = newOffsets[region.to] + trail;
    hunks.push(
      buildHunk(
        path,
        'edit',
        lineOffset + oldFrom + 1,
        oldLines.slice(oldFrom, oldTo),
        lineOffset + newFrom + 1,
        newLines.slice(newFrom, newTo),
        body,
      ),
    );
  }
  return hunks;
}

/** For each segment index, how many lines of one side precede it (`skip` names the other side's kind). */
function segmentOffsets(segments: Segment[], skip: Segment['kind']): number[] {
  const offsets = [0];
  for (const segment of segments) offsets.push(offsets[offsets.length - 1] + (segment.kind === skip ? 0 : segment.lines.length));
  return offsets;
}

function buildHunk(
  path: string,
  kind: 'new' | 'edit',
  oldStart: number,
  oldText: string[],
  newStart: number,
  newText: string[],
  body: Segment[],
): Hunk {
  const lines: string[] = [];
  let added = 0;
  let removed = 0;
  for (const segment of body) {
    const prefix = segment.kind === 'equal' ? ' ' : segment.kind === 'added' ? '+' : '-';
    if (segment.kind === 'added') added += segment.lines.length;
    if (segment.kind === 'removed') removed += segment.lines.length;
    for (const line of segment.lines) {
      lines.push(prefix + withoutNewline(line));
      if (!line.endsWith('\n')) lines.push(noNewlineMarker);
    }
  }
  const id = createHash('sha256')
    .update(`${path}\0${kind}\0${oldStart},${oldText.length}\0${lines.join('\n')}`)
    .digest('hex')
    .slice(0, 16);
  return { id, oldStart, oldLines: oldText.length, newStart, newLines: newText.length, lines, added, removed, oldText, newText };
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
