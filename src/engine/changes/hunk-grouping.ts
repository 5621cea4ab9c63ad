/**
 * How a diff's segments become reviewable hunks: changed runs closer than twice the context share a hunk,
 * each hunk gets its context lines, its line numbers in both texts, its unified-diff body and a stable id.
 */
import { createHash } from 'node:crypto';
import { diffContextLines, type Hunk, noNewlineMarker, type Segment } from './hunk-shape.js';
import { withoutNewline } from './lines.js';

interface Region {
  /** Index of the first segment and one past the last, in `segments`. */
  from: number;
  to: number;
}

/** `lineOffset`: lines of both texts before `oldLines` and `newLines` begin. */
export function groupIntoHunks(path: string, oldLines: string[], newLines: string[], segments: Segment[], lineOffset: number): Hunk[] {
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

export function buildHunk(
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
