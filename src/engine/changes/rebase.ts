import { type Hunk } from './hunks.js';
import { splitLinesKeepingEnds } from './lines.js';

/**
 * Replays hunks on a file that changed since they were computed: each hunk's base lines (context and
 * removed, exactly) must still appear, after the previous hunk's, nearest to where they were; they are
 * replaced by the hunk's new lines. Returns null when any hunk no longer fits — then only a person can
 * merge. Nothing fuzzy: a wrong merge is worse than a reported conflict.
 */
export function rebaseHunks(hunks: readonly Hunk[], current: string): string | null {
  const lines = splitLinesKeepingEnds(current);
  const output: string[] = [];
  let cursor = 0;
  let shift = 0;
  for (const hunk of hunks) {
    const expected = hunk.oldStart - 1 + shift;
    const found = findBlock(lines, hunk.oldText, expected, cursor);
    if (found === null) return null;
    for (let index = cursor; index < found; index++) output.push(lines[index]);
    output.push(...hunk.newText);
    cursor = found + hunk.oldText.length;
    shift = found - (hunk.oldStart - 1);
  }
  for (let index = cursor; index < lines.length; index++) output.push(lines[index]);
  return output.join('');
}

/** The start of `block` in `lines` at or after `minimum`, nearest to `expected` (earlier wins a tie). */
function findBlock(lines: readonly string[], block: readonly string[], expected: number, minimum: number): number | null {
  if (block.length === 0) {
    // Only a new or empty file has a hunk without base lines: it fits only where there is nothing.
    return lines.length === 0 ? 0 : null;
  }
  const last = lines.length - block.length;
  for (let distance = 0; ; distance++) {
    const below = expected - distance;
    const above = expected + distance;
    if (below < minimum && above > last) return null;
    if (below >= minimum && below <= last && blockAt(lines, block, below)) return below;
    if (distance > 0 && above >= minimum && above <= last && blockAt(lines, block, above)) return above;
  }
}

function blockAt(lines: readonly string[], block: readonly string[], start: number): boolean {
  for (let index = 0; index < block.length; index++) if (lines[start + index] !== block[index]) return false;
  return true;
}
