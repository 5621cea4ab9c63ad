/**
 * Which changes of the two sides of a three-way merge (three-way.ts) touch each other, and so must be
 * settled together: the proposal's hunks (with their context) against the disk's changes (without).
 */

/** A change on one side: base lines [from, to) replaced by `lines` (from === to: an insertion). */
export interface Edit {
  from: number;
  to: number;
  lines: readonly string[];
}

export interface Group {
  from: number;
  to: number;
  disk: Edit[];
  ours: Edit[];
}

/**
 * Edits in base order, those that touch joined in one group. A hunk is touched by a change on disk that
 * replaces any of its lines or inserts between two of them; an insertion right before or after a hunk
 * leaves every line of it in place, so it does not touch, except at the start or end of the file: a
 * hunk there is anchored to it (its context is short because the file begins or ends), and a line put
 * before the first line (or after the last) moves that anchor. A hunk without base lines is touched by
 * any change at its place. Edits of one side never touch each other.
 */
export function groupTouching(disk: readonly Edit[], ours: readonly Edit[], baseLength: number): Group[] {
  const all = [...disk.map((edit) => ({ edit, mine: false })), ...ours.map((edit) => ({ edit, mine: true }))];
  all.sort((a, b) => a.edit.from - b.edit.from || a.edit.to - b.edit.to || Number(a.mine) - Number(b.mine));
  const groups: Group[] = [];
  for (const { edit, mine } of all) {
    const last = groups[groups.length - 1];
    const others = last ? (mine ? last.disk : last.ours) : [];
    const joins =
      last !== undefined && (edit.from < last.to || others.some((other) => touches(mine ? other : edit, mine ? edit : other, baseLength)));
    if (!joins) {
      groups.push({ from: edit.from, to: edit.to, disk: mine ? [] : [edit], ours: mine ? [edit] : [] });
      continue;
    }
    last.to = Math.max(last.to, edit.to);
    (mine ? last.ours : last.disk).push(edit);
  }
  return groups;
}

function touches(disk: Edit, hunk: Edit, baseLength: number): boolean {
  if (hunk.from === hunk.to) return disk.from <= hunk.from && hunk.from <= disk.to;
  if (disk.from === disk.to) {
    const atAnchor = (disk.from === 0 && hunk.from === 0) || (disk.from === baseLength && hunk.to === baseLength);
    return atAnchor || (hunk.from < disk.from && disk.from < hunk.to);
  }
  return disk.from < hunk.to && hunk.from < disk.to;
}
