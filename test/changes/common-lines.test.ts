import { describe, expect, it } from 'vitest';
import { commonLines } from '../../src/engine/changes/common-lines.js';
import { applyHunks, computeHunks } from '../../src/engine/changes/hunks.js';
import { splitLinesKeepingEnds } from '../../src/engine/changes/lines.js';

/** A small deterministic generator, so a failure names texts that can be made again. */
function generator(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state % below;
  };
}

// Lines that repeat, CRLF, a line without its newline, a character outside the BMP: what trips line logic.
const pieces = ['a\n', 'b\n', 'a\r\n', '\n', 'x', 'a longer line of text\n', '😀\n', 'b'];

function randomText(next: (below: number) => number, pieceCount: number): string {
  let text = '';
  for (let index = 0; index < pieceCount; index++) text += pieces[next(pieces.length)];
  return text;
}

function randomEdit(next: (below: number) => number, text: string): string {
  let edited = text;
  for (let edit = next(4); edit > 0; edit--) {
    const at = next(edited.length + 1);
    edited = edited.slice(0, at) + randomText(next, next(3)) + edited.slice(Math.min(edited.length, at + next(6)));
  }
  return edited;
}

/** Shared leading and trailing lines, counted line by line (the prefix first; the suffix never overlaps it). */
function sharedLines(a: string, b: string): { prefix: number; suffix: number } {
  const left = splitLinesKeepingEnds(a);
  const right = splitLinesKeepingEnds(b);
  let prefix = 0;
  while (prefix < left.length && prefix < right.length && left[prefix] === right[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < left.length - prefix &&
    suffix < right.length - prefix &&
    left[left.length - 1 - suffix] === right[right.length - 1 - suffix]
  )
    suffix++;
  return { prefix, suffix };
}

describe('commonLines', () => {
  it('finds the shared whole lines at both ends, less the context kept next to the difference', () => {
    const base = Array.from({ length: 20 }, (_, index) => `line ${index + 1}\n`).join('');
    const shared = commonLines(base, base.replace('line 10\n', 'line ten\n'), 3);
    expect(shared.prefixLines).toBe(6);
    expect(shared.prefixChars).toBe(base.indexOf('line 7\n'));
    expect(base.length - shared.suffixChars).toBe(base.indexOf('line 14\n'));
  });

  it('never counts a line as shared that is not, on texts made to trip it', () => {
    const next = generator(7);
    for (let round = 0; round < 1_000; round++) {
      const a = randomText(next, next(30));
      const b = next(5) === 0 ? a : randomEdit(next, a);
      const keep = next(4);
      const shared = commonLines(a, b, keep);
      const lines = sharedLines(a, b);
      const context = `${JSON.stringify(a)} / ${JSON.stringify(b)}, keep ${keep}`;
      // Equal texts without a last newline: their last line is left out of the prefix (the suffix may take it).
      if (a === b) expect(shared.prefixLines, context).toBeLessThanOrEqual(Math.max(0, lines.prefix - keep));
      else expect(shared.prefixLines, context).toBe(Math.max(0, lines.prefix - keep));
      expect(a.slice(0, shared.prefixChars), context).toBe(splitLinesKeepingEnds(a).slice(0, shared.prefixLines).join(''));
      expect(b.slice(0, shared.prefixChars), context).toBe(a.slice(0, shared.prefixChars));
      const suffixLines = splitLinesKeepingEnds(a.slice(a.length - shared.suffixChars)).length;
      expect(suffixLines, context).toBeLessThanOrEqual(Math.max(0, lines.suffix - keep));
      expect(b.slice(b.length - shared.suffixChars), context).toBe(a.slice(a.length - shared.suffixChars));
      expect(shared.prefixChars + shared.suffixChars, context).toBeLessThanOrEqual(Math.min(a.length, b.length));
    }
  });
});

describe('computeHunks on the differing middle only', () => {
  it('gives the hunks of the whole texts: the same lines, numbered in the whole file, applying to the proposal', () => {
    const next = generator(11);
    for (let round = 0; round < 300; round++) {
      const middle = randomText(next, next(20));
      const edited = randomEdit(next, middle);
      const head = 'head\n'.repeat(next(30));
      const tail = next(2) === 0 ? '' : 'tail\n'.repeat(next(30));
      const alone = computeHunks('f.txt', middle, edited);
      const whole = computeHunks('f.txt', head + middle, head + edited);
      const shift = splitLinesKeepingEnds(head).length;
      const context = `${JSON.stringify(middle)} / ${JSON.stringify(edited)}, ${shift} lines before`;
      // The lines before only move the hunks down (their context may take in some of those lines).
      expect(
        whole.map((hunk) => hunk.added - hunk.removed),
        context,
      ).toEqual(alone.map((hunk) => hunk.added - hunk.removed));
      expect(
        applyHunks(head + middle, whole, () => true),
        context,
      ).toBe(head + edited);
      const withTail = computeHunks('f.txt', head + middle + tail, head + edited + tail);
      expect(
        applyHunks(head + middle + tail, withTail, () => true),
        context,
      ).toBe(head + edited + tail);
      expect(
        applyHunks(head + middle + tail, withTail, () => false),
        context,
      ).toBe(head + middle + tail);
      const baseLines = splitLinesKeepingEnds(head + middle + tail);
      for (const hunk of withTail)
        expect(hunk.oldText.join(''), context).toBe(baseLines.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines).join(''));
    }
  });

  it('diffs an edit of one line in a large file as it diffs the lines around it', () => {
    const base = Array.from({ length: 20_000 }, (_, index) => `export const value${index} = ${index};\n`).join('');
    const hunks = computeHunks('big.ts', base, base.replace('value12345 =', 'renamed12345 ='));
    expect(hunks.map((hunk) => [hunk.oldStart, hunk.oldLines, hunk.newStart, hunk.newLines, hunk.added, hunk.removed])).toEqual([
      [12_343, 7, 12_343, 7, 1, 1],
    ]);
    expect(hunks[0].lines[3]).toBe('-export const value12345 = 12345;');
  });
});
