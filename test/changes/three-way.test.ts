import { describe, expect, it } from 'vitest';
import { computeHunks } from '../../src/engine/changes/hunks.js';
import { mergeThreeWay } from '../../src/engine/changes/three-way.js';

/** Thirty numbered lines: edits at 3 and 20 are far apart (their contexts do not meet). */
const base = Array.from({ length: 30 }, (_, index) => `line ${index + 1}\n`).join('');
const labels = { current: 'task t2', proposed: 'task t3' };

/** The proposal `proposed` (from `base`) merged onto `current`, all of its hunks accepted. */
function merge(current: string, proposed: string) {
  return mergeThreeWay('f.txt', base, current, computeHunks('f.txt', base, proposed));
}

describe('mergeThreeWay', () => {
  it('lands hunks that touch different lines of the file on both sides', () => {
    const earlier = base.replace('line 3\n', 'three\n');
    const later = base.replace('line 20\n', 'twenty\ntwenty and a half\n');
    const result = merge(earlier, later);
    expect(result.conflicts).toEqual([]);
    expect(result.resolved('proposed')).toBe(base.replace('line 3\n', 'three\n').replace('line 20\n', 'twenty\ntwenty and a half\n'));
  });

  it('places a hunk after lines the disk added or removed above it', () => {
    const earlier = `header\nmore header\n${base.replace('line 5\n', '')}`;
    const result = merge(earlier, base.replace('line 25\n', 'twenty-five\n'));
    expect(result.conflicts).toEqual([]);
    expect(result.resolved('proposed')).toBe(earlier.replace('line 25\n', 'twenty-five\n'));
  });

  it('gives one conflict with both sides where both changed the same lines', () => {
    const earlier = base.replace('line 10\n', 'ten by t2\n');
    const later = base.replace('line 10\n', 'ten by t3\n').replace('line 25\n', 'twenty-five\n');
    const result = merge(earlier, later);
    expect(result.conflicts).toHaveLength(1);
    const [conflict] = result.conflicts;
    expect(conflict.current).toContain('ten by t2\n');
    expect(conflict.proposed).toContain('ten by t3\n');
    expect(conflict.current).not.toContain('ten by t3\n');
    // The region is the proposal's hunk with its context, numbered in the base.
    expect([conflict.baseStart, conflict.baseLines]).toEqual([7, 7]);
    const marked = result.resolved('markers', labels);
    expect(marked).toContain(
      '<<<<<<< task t2\nline 7\nline 8\nline 9\nten by t2\nline 11\nline 12\nline 13\n=======\nline 7\nline 8\nline 9\nten by t3\nline 11\nline 12\nline 13\n>>>>>>> task t3\n',
    );
    // Away from the conflict the other hunk still lands, and each side can be taken whole.
    expect(marked).toContain('twenty-five\n');
    expect(result.resolved('current')).toBe(earlier.replace('line 25\n', 'twenty-five\n'));
    expect(result.resolved('proposed')).toBe(later);
  });

  it('is exact: a context line the disk changed is a conflict, never a fuzzy fit', () => {
    // The proposal changes line 10; line 8 (two lines above, in its context) changed on disk.
    const earlier = base.replace('line 8\n', 'eight\n');
    const result = merge(earlier, base.replace('line 10\n', 'ten\n'));
    expect(result.conflicts).toHaveLength(1);
    expect(result.conflicts[0]!.current).toContain('eight\n');
    expect(result.conflicts[0]!.proposed).toContain('ten\n');
  });

  it('is exact: a line inserted on disk between two lines of a hunk is a conflict', () => {
    const earlier = base.replace('line 11\n', 'line 11\ninserted\n');
    expect(merge(earlier, base.replace('line 10\n', 'ten\n')).conflicts).toHaveLength(1);
  });

  it('is exact: a line put before the first line of the file touches a hunk anchored there (and after the last)', () => {
    expect(merge(`header\n${base}`, base.replace('line 2\n', 'two\n')).conflicts).toHaveLength(1);
    expect(merge(`${base}footer\n`, base.replace('line 29\n', 'twenty-nine\n')).conflicts).toHaveLength(1);
    // Away from the ends, an insertion right before a hunk's first context line leaves it whole.
    expect(merge(base.replace('line 7\n', 'inserted\nline 7\n'), base.replace('line 10\n', 'ten\n')).conflicts).toEqual([]);
  });

  it('is exact: a hunk whose lines appear twice is placed by the base, not by a search', () => {
    // Both halves of the file are the same; the disk's change in the first half must not move the hunk.
    const half = Array.from({ length: 12 }, (_, index) => `same ${index + 1}\n`).join('');
    const doubled = `${half}${half}`;
    const current = doubled.replace('same 1\n', 'first\n');
    const later = `${half}${half.replace('same 6\n', 'six\n')}`;
    const result = mergeThreeWay('f.txt', doubled, current, computeHunks('f.txt', doubled, later));
    expect(result.conflicts).toEqual([]);
    expect(result.resolved('proposed')).toBe(`${half.replace('same 1\n', 'first\n')}${half.replace('same 6\n', 'six\n')}`);
  });

  it('takes the same change made on both sides once, without a conflict', () => {
    const both = base.replace('line 10\n', 'ten\n');
    const result = merge(both, both);
    expect(result.conflicts).toEqual([]);
    expect(result.resolved('proposed')).toBe(both);
  });

  it('puts markers on lines of their own when a side ends without a newline', () => {
    const short = 'a\nb\nc';
    const result = mergeThreeWay('f.txt', short, 'a\nb\nC', computeHunks('f.txt', short, 'a\nb\nsee'));
    expect(result.resolved('markers', labels)).toBe('<<<<<<< task t2\na\nb\nC\n=======\na\nb\nsee\n>>>>>>> task t3\n');
  });

  it('refuses hunks computed from another base', () => {
    const hunks = computeHunks('f.txt', base.replace('line 10\n', 'other\n'), base);
    expect(() => mergeThreeWay('f.txt', base, base, hunks)).toThrow(/does not belong/);
  });
});
