/**
 * The three-way merge of a proposal onto a file that changed since the proposal's base was read (another
 * task's proposal was written there, or the user edited it): hunk by hunk, exact, never fuzzy. Each
 * accepted hunk of the proposal covers base lines (its context included); each change on disk covers the
 * base lines it replaced. A hunk no change on disk touches lands where its base lines now are; a change
 * on disk no hunk touches stays. Where they touch — a context line of the hunk changed on disk counts —
 * the region is one conflict with both sides, unless both sides made the very same change.
 */
import { computeHunks, type Hunk } from './hunks.js';
import { splitLinesKeepingEnds } from './lines.js';
import { type Edit, groupTouching } from './touching-edits.js';

/** One region of the base both the disk and the proposal changed, with each side's lines. */
export interface MergeConflict {
  /** 1-based first base line of the region, and how many base lines it covers. */
  baseStart: number;
  baseLines: number;
  /** The region as it is on disk now (terminators included). */
  current: readonly string[];
  /** The region as the proposal would make it. */
  proposed: readonly string[];
}

/** How a conflict is settled: keep the disk's side, take the proposal's, or write both between markers. */
export type ConflictSide = 'current' | 'proposed' | 'markers';

export interface MergeLabels {
  /** Names the disk's side after `<<<<<<<` (e.g. `task t2`). */
  current: string;
  /** Names the proposal's side after `>>>>>>>` (e.g. `task t3`). */
  proposed: string;
}

export interface ThreeWayMerge {
  /** Empty when the proposal merges cleanly. */
  conflicts: readonly MergeConflict[];
  /** The merged file, each conflict settled by `side` (markers name the sides with `labels`). */
  resolved(side: ConflictSide, labels?: MergeLabels): string;
}

type Piece = { lines: readonly string[] } | { conflict: MergeConflict };

/**
 * Merges the proposal's `hunks` (computed from `base`) onto `current`. `path` only names the hunks. Throws
 * when a hunk's base lines are not those of `base` (the hunks belong to another base: a bug, not a conflict).
 */
export function mergeThreeWay(path: string, base: string, current: string, hunks: readonly Hunk[]): ThreeWayMerge {
  const baseLines = splitLinesKeepingEnds(base);
  const disk = diskEdits(path, base, current);
  const ours: Edit[] = hunks.map((hunk) => {
    const from = hunk.oldStart - 1;
    const to = from + hunk.oldLines;
    if (!sameLines(baseLines.slice(from, to), hunk.oldText))
      throw new Error(`A hunk of ${path} does not belong to the base it is merged from.`);
    return { from, to, lines: hunk.newText };
  });
  const pieces: Piece[] = [];
  let cursor = 0;
  for (const group of groupTouching(disk, ours, baseLines.length)) {
    pieces.push({ lines: baseLines.slice(cursor, group.from) });
    const region = baseLines.slice(group.from, group.to);
    const currentSide = applyEdits(region, group.from, group.disk);
    const proposedSide = applyEdits(region, group.from, group.ours);
    if (group.disk.length === 0) pieces.push({ lines: proposedSide });
    else if (group.ours.length === 0 || sameLines(currentSide, proposedSide)) pieces.push({ lines: currentSide });
    else
      pieces.push({
        conflict: { baseStart: group.from + 1, baseLines: group.to - group.from, current: currentSide, proposed: proposedSide },
      });
    cursor = group.to;
  }
  pieces.push({ lines: baseLines.slice(cursor) });
  const conflicts = pieces.flatMap((piece) => ('conflict' in piece ? [piece.conflict] : []));
  return {
    conflicts,
    resolved: (side, labels = { current: 'on disk', proposed: 'proposal' }) =>
      pieces.map((piece) => ('lines' in piece ? piece.lines.join('') : settle(piece.conflict, side, labels))).join(''),
  };
}

/** The conflict's lines as `side` settles it; markers go on lines of their own even after a last line without a newline. */
export function settle(conflict: MergeConflict, side: ConflictSide, labels: MergeLabels): string {
  if (side === 'current') return conflict.current.join('');
  if (side === 'proposed') return conflict.proposed.join('');
  const block = (lines: readonly string[]) => {
    const text = lines.join('');
    return text === '' || text.endsWith('\n') ? text : `${text}\n`;
  };
  return `<<<<<<< ${labels.current}\n${block(conflict.current)}=======\n${block(conflict.proposed)}>>>>>>> ${labels.proposed}\n`;
}

/** True when `content` holds a whole conflict block (`<<<<<<< `, `=======`, `>>>>>>> ` lines, in order). */
export function hasConflictMarkers(content: string): boolean {
  return /^<<<<<<< .*\n(?:.*\n)*?=======\n(?:.*\n)*?>>>>>>> /m.test(content);
}

/** What changed on disk since `base`, without context: the hunks' runs of removed and added lines. */
function diskEdits(path: string, base: string, current: string): Edit[] {
  const currentLines = splitLinesKeepingEnds(current);
  const edits: Edit[] = [];
  for (const hunk of computeHunks(path, base, current)) {
    let baseAt = hunk.oldStart - 1;
    let currentAt = hunk.newStart - 1;
    let open: { from: number; lines: string[] } | undefined;
    const close = () => {
      if (open) edits.push({ from: open.from, to: baseAt, lines: open.lines });
      open = undefined;
    };
    for (const line of hunk.lines) {
      if (line.startsWith('\\')) continue;
      if (line.startsWith(' ')) {
        close();
        baseAt++;
        currentAt++;
        continue;
      }
      open ??= { from: baseAt, lines: [] };
      if (line.startsWith('-')) baseAt++;
      else open.lines.push(currentLines[currentAt++]!);
    }
    close();
  }
  return edits;
}

/** `region` (base lines from `offset`) with `edits` applied. */
function applyEdits(region: readonly string[], offset: number, edits: readonly Edit[]): string[] {
  const output: string[] = [];
  let cursor = 0;
  for (const edit of edits) {
    output.push(...region.slice(cursor, edit.from - offset), ...edit.lines);
    cursor = edit.to - offset;
  }
  output.push(...region.slice(cursor));
  return output;
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, index) => line === b[index]);
}
